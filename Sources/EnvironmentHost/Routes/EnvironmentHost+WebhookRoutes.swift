import Foundation
import SandboxCore
import SandboxCrypto
import SandboxHTTP
import SandboxStore

/// The webhook delivery log, replay and endpoint settings on the back-office API, and the
/// sandbox-control trigger that makes a host emit a sample event.
extension EnvironmentHost {
    struct WebhookEvent: Codable, Sendable {
        struct Attempt: Codable, Sendable {
            let attempt: Int
            let at: String
            let status: Int?
            let latencyMs: Double
            let error: String?
            let responseExcerpt: String?
        }

        let id: String
        let type: String
        let merchantId: String
        let transactionId: String?
        let url: String
        let scheme: String
        let state: String
        let attempts: Int
        let createdAt: String
        let nextAttemptAt: String?
        let deliveredAt: String?
        let payload: String?
        let log: [Attempt]?
    }

    struct WebhookSettings: Codable, Sendable {
        let merchantId: String
        /// Null: the host's default receiver (the sandbox inbox under `sandbox up`).
        let url: String?
        let scheme: String
        /// The Standard Webhooks secret; MONEI signatures use the merchant's API key.
        let secret: String
        let disabled: Bool
    }

    static func addWebhookRoutes(to router: inout Router, lifecycle: Lifecycle, payments: Payments, outbox: Outbox, key: String) {
        let store = lifecycle.store
        @Sendable func event(_ row: Row, withLog log: [WebhookEvent.Attempt]?) throws -> WebhookEvent {
            WebhookEvent(
                id: try row["id"], type: try row["type"], merchantId: try row["merchant_id"],
                transactionId: try row["transaction_id"], url: try row["url"], scheme: try row["scheme"], state: try row["state"],
                attempts: try row["attempts"], createdAt: Wire.time(try row["created_at"]),
                nextAttemptAt: (try row["next_attempt_at"] as Int64?).map(Wire.time),
                deliveredAt: (try row["delivered_at"] as Int64?).map(Wire.time),
                payload: log == nil ? nil : String(decoding: try row["body"] as [UInt8], as: UTF8.self), log: log)
        }
        router.group("/backoffice/v1", middleware: backOfficeKey(key)) { backOffice in
            backOffice.get("/webhooks/events") { request, _ in
                let limit = Int(request.query["limit"] ?? "50") ?? 0
                guard (1...500).contains(limit) else {
                    throw HTTPError.invalidRequest("limit must be a whole number from 1 to 500.", field: "query.limit")
                }
                let merchant = request.query["merchantId"].flatMap { $0.isEmpty ? nil : $0 }
                let events = try store.read { db in
                    try db.query(
                        "SELECT * FROM webhook_events WHERE (? IS NULL OR merchant_id = ?) ORDER BY seq DESC LIMIT ?",
                        [merchant.map(DatabaseValue.text) ?? .null, merchant.map(DatabaseValue.text) ?? .null, .integer(Int64(limit))]
                    ).map { try event($0, withLog: nil) }
                }
                return .json(["events": events])
            }
            backOffice.get("/webhooks/events/{eventId}") { request, _ in
                let id = request.parameter("eventId")
                return .json(
                    try store.read { db in
                        guard let row = try db.query("SELECT * FROM webhook_events WHERE id = ?", [.text(id)]).first else { throw WebhookError.eventNotFound }
                        let log = try db.query("SELECT * FROM webhook_attempts WHERE event_id = ? ORDER BY id", [.text(id)]).map { attempt in
                            WebhookEvent.Attempt(
                                attempt: try attempt["attempt"], at: Wire.time(try attempt["at"]), status: try attempt["status"],
                                latencyMs: try attempt["latency_ms"], error: try attempt["error"],
                                responseExcerpt: try attempt["response_excerpt"])
                        }
                        return try event(row, withLog: log)
                    })
            }
            backOffice.post("/webhooks/events/{eventId}/replay") { request, _ in
                let id = request.parameter("eventId")
                let now = lifecycle.now()
                try store.write { db in
                    try db.run(
                        "UPDATE webhook_events SET state = 'pending', next_attempt_at = ? WHERE id = ?", [.integer(now), .text(id)])
                    guard db.changes == 1 else { throw WebhookError.eventNotFound }
                }
                return .json(["eventId": id, "state": "pending"], status: 202)
            }
            backOffice.get("/merchants/{merchantId}/webhook") { request, _ in
                let merchant = try Validate.identifier(request.parameter("merchantId"), field: "merchantId")
                guard lifecycle.directory.merchants[merchant] != nil else { throw LifecycleError.merchantNotFound }
                let endpoint = try store.write { db in try outbox.endpoint(db, merchant: merchant, at: lifecycle.now()) }
                return .json(
                    WebhookSettings(
                        merchantId: merchant, url: endpoint.url, scheme: endpoint.scheme, secret: endpoint.secret,
                        disabled: endpoint.disabled))
            }
            backOffice.put("/merchants/{merchantId}/webhook") { request, _ in
                struct Body: Decodable { let url: String?; let scheme: String }
                let merchant = try Validate.identifier(request.parameter("merchantId"), field: "merchantId")
                guard lifecycle.directory.merchants[merchant] != nil else { throw LifecycleError.merchantNotFound }
                let body = try request.decode(Body.self)
                guard ["monei", "standard"].contains(body.scheme) else {
                    throw HTTPError.invalidRequest("scheme must be monei or standard.", field: "scheme")
                }
                if let url = body.url, let reason = outbox.refusal(of: url) {
                    throw HTTPError.invalidRequest(reason.replacingOccurrences(of: "callbackUrl", with: "url") + ".", field: "url")
                }
                let now = lifecycle.now()
                let endpoint = try store.write { db in
                    _ = try outbox.endpoint(db, merchant: merchant, at: now)
                    // Saving the settings also turns an endpoint disabled by a 410 back on.
                    try db.run(
                        "UPDATE webhook_endpoints SET url = ?, scheme = ?, disabled_at = NULL, updated_at = ? WHERE merchant_id = ?",
                        [body.url.map(DatabaseValue.text) ?? .null, .text(body.scheme), .integer(now), .text(merchant)])
                    return try outbox.endpoint(db, merchant: merchant, at: now)
                }
                return .json(
                    WebhookSettings(
                        merchantId: merchant, url: endpoint.url, scheme: endpoint.scheme, secret: endpoint.secret,
                        disabled: endpoint.disabled))
            }
        }
        router.post("/_sandbox/webhooks/trigger") { request in
            struct Body: Decodable { let event: String; let merchantId: String? }
            let body = try request.decode(Body.self)
            let types = Payments.sampleEvents
            guard types.contains(body.event) else {
                throw HTTPError.invalidRequest("event must be one of \(types.joined(separator: ", ")).", field: "event")
            }
            guard let merchant = try body.merchantId.map({ try Validate.identifier($0, field: "merchantId") })
                ?? lifecycle.directory.merchants.keys.sorted().first,
                let fixture = lifecycle.directory.merchants[merchant], let terminal = fixture.terminals.first
            else { throw LifecycleError.merchantNotFound }
            let now = lifecycle.now()
            let sample = try payments.sample(body.event, merchant: merchant, terminal: terminal.id, at: now)
            let eventID: String = try lifecycle.store.write { db in
                try outbox.record(db, sample, type: body.event, at: now)
                guard let row = try db.query("SELECT id FROM webhook_events WHERE transaction_id = ? ORDER BY seq DESC LIMIT 1", [.text(sample.id)]).first
                else { throw WebhookError.noWebhookEndpoint }
                return try row["id"]
            }
            return .json(["eventId": eventID], status: 202)
        }
    }
}
