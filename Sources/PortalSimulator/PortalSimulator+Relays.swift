// Every page action that is one back-office or sandbox-control call of the region's host
// (openapi/portal.yaml describes each).
extension PortalSimulator {
    static let relays: [Relay] = [
        // Terminals and registration tokens.
        .get("/api/regions/{region}/merchants", "/backoffice/v1/merchants"),
        .post("/api/regions/{region}/terminals/{terminalId}/unregister", "/backoffice/v1/terminals/{terminalId}/unregister"),
        .post("/api/regions/{region}/terminals/{terminalId}/unlock", "/backoffice/v1/terminals/{terminalId}/unlock"),
        .post("/api/regions/{region}/registration-tokens", "/backoffice/v1/registration-tokens", body: true),
        .delete("/api/regions/{region}/registration-tokens/{token}", "/backoffice/v1/registration-tokens/{token}"),
        .post("/api/regions/{region}/registration-tokens/{token}/refresh", "/backoffice/v1/registration-tokens/{token}/refresh"),
        .post("/api/regions/{region}/registration-tokens/{token}/email", "/backoffice/v1/registration-tokens/{token}/email", body: true),
        .get("/api/regions/{region}/mailbox", "/backoffice/v1/mailbox"),
        // Transactions and statistics.
        .get(
            "/api/regions/{region}/transactions", "/backoffice/v1/transactions",
            query: ["merchantId", "terminalId", "status", "type", "paymentMethod", "dateFrom", "dateTo", "page", "itemsPerPage"]),
        .get(
            "/api/regions/{region}/transactions.csv", "/backoffice/v1/transactions.csv",
            query: ["merchantId", "terminalId", "status", "type", "paymentMethod", "dateFrom", "dateTo"]),
        .get("/api/regions/{region}/transactions/{transactionId}", "/backoffice/v1/transactions/{transactionId}"),
        .get(
            "/api/regions/{region}/statistics", "/backoffice/v1/statistics",
            query: ["merchantId", "terminalId", "fromDate", "toDate", "statisticsType"]),
        // The receipt page a customer opens, relayed so the browser only talks to the portal.
        .get("/api/regions/{region}/receipts/{receiptId}", "/receipts/{receiptId}"),
        // Webhooks.
        .get("/api/regions/{region}/merchants/{merchantId}/webhook", "/backoffice/v1/merchants/{merchantId}/webhook"),
        .put("/api/regions/{region}/merchants/{merchantId}/webhook", "/backoffice/v1/merchants/{merchantId}/webhook"),
        .post(
            "/api/regions/{region}/merchants/{merchantId}/webhook/rotate-secret", "/backoffice/v1/merchants/{merchantId}/webhook/rotate-secret",
            body: true),
        .get("/api/regions/{region}/webhooks/events", "/backoffice/v1/webhooks/events", query: ["merchantId", "limit"]),
        .get("/api/regions/{region}/webhooks/events/{eventId}", "/backoffice/v1/webhooks/events/{eventId}"),
        .post("/api/regions/{region}/webhooks/events/{eventId}/replay", "/backoffice/v1/webhooks/events/{eventId}/replay"),
        .post("/api/regions/{region}/webhooks/test", "/_sandbox/webhooks/trigger", body: true),
        // The request journal.
        .get(
            "/api/regions/{region}/requests", "/backoffice/v1/requests",
            query: ["surface", "method", "status", "failed", "path", "subject", "code", "limit"]),
        .get("/api/regions/{region}/requests/{requestId}", "/backoffice/v1/requests/{requestId}"),
        .delete("/api/regions/{region}/requests", "/backoffice/v1/requests"),
        .put("/api/regions/{region}/requests/capture", "/backoffice/v1/requests/capture"),
        // The clock, the reset and faults.
        .get("/api/regions/{region}/clock", "/_sandbox/clock"),
        .post("/api/regions/{region}/clock", "/_sandbox/clock", body: true),
        .post("/api/regions/{region}/reset", "/_sandbox/reset"),
        .get("/api/regions/{region}/faults", "/_sandbox/faults"),
        .post("/api/regions/{region}/faults", "/_sandbox/faults", body: true),
        .delete("/api/regions/{region}/faults/{faultId}", "/_sandbox/faults/{faultId}"),
        .delete("/api/regions/{region}/faults", "/_sandbox/faults"),
    ]
}
