import Foundation
import HostTestSupport
import SandboxWire
import SandboxTestSupport

/// The QR wallet passes (docs/qr-payments.md): a device on a terminal with APMs, the wallet played
/// by HostTestSupport's ``WalletProviderDouble`` (the host under test is started with
/// `--wallet-url` pointing at it), QR payments in every final status made over HTTP first.
extension ConformanceTests {
    /// The double the APM host calls; kept alive for the whole test by the host under test.
    static func apmWallet() throws -> WalletProviderDouble {
        try WalletProviderDouble(region: HostUnderTest.region)
    }

    static func apmPasses(host: HostUnderTest, wallet: WalletProviderDouble, fixtures: Fixtures) throws -> [Pass] {
        typealias Settings = Schemathesis.OperationSettings
        guard let terminal = fixtures.terminals.first(where: { $0.id == "EU-T0101" && $0.registerOptions.contains("portal") }) else {
            throw HarnessError("merchants.json: EU-T0101 (APMs on) takes no portal registration")
        }
        let device = try PaymentDevice(host: host, terminal: terminal, device: "conformance-apm-device", pin: "1357", fixtures)
        let api = Service(name: "EU", baseURL: host.base)
        func order(_ amount: Int) throws -> String {
            let made = try host.expect(
                201, "POST", "/terminal/v1/apm/qr/payments", body: ["requestedAmount": amount, "brand": "ALIPAY"], bearer: device.token)
            guard let id = made["transactionId"] as? String else { throw HarnessError("doQRPayment gave no transactionId: \(made)") }
            return id
        }
        func notify(_ type: WalletProvider.NotificationType, _ order: String, refund: String? = nil, reason: String? = nil) throws {
            let (body, headers) = try wallet.signed(wallet.notification(type, order: order, refund: refund, paymentId: "wpay", reason: reason))
            let reply = api.call("POST", "/provider/v1/notifications", raw: body, headers: headers)
            guard reply.status == 204 else { throw HarnessError("notifying \(type.rawValue): \(reply)") }
        }
        var ids: [String: String] = [:]
        ids["paid"] = try order(1000)
        try notify(.orderPaid, ids["paid"]!)
        ids["declined"] = try order(1000)
        try notify(.orderDeclined, ids["declined"]!, reason: "insufficient_funds")
        ids["cancelled"] = try order(1000)
        try host.expect(200, "POST", "/terminal/v1/apm/transactions/\(ids["cancelled"]!)/cancel", body: [:], bearer: device.token)
        ids["refunded"] = try order(2000)
        try notify(.orderPaid, ids["refunded"]!)
        let refund = try host.expect(
            201, "POST", "/terminal/v1/apm/qr/refunds", body: ["refundedTransactionId": ids["refunded"]!, "refundAmount": 2000],
            bearer: device.token)
        ids["refund"] = refund["transactionId"] as? String ?? ""
        try notify(.refundSucceeded, ids["refunded"]!, refund: ids["refund"])
        let atRest = ids.keys.sorted().compactMap { ids[$0] }
        let amounts = [100, 500, 1000, 2000]
        let terminalRules = """
            The terminal's rules are no schema's business: an amount above its limitAmount (amount_over_limit), a tip \
            above its maximum (tip_over_limit), a reference its pattern refuses are rightly 400 for schema-valid requests.
            """
        /// Past every QR deadline (apmTimeout 300 s), so what a pass left in flight times out.
        func free(_ pass: inout Pass) throws {
            try device.advanceClock(seconds: 301)
            pass.authorization = device.token
        }
        return [
            Pass(
                name: "apm: reads", filters: ["--include-operation-id", "getAPMTransaction"], authorization: device.token,
                dictionaries: ["transactions": atRest],
                settings: [
                    Settings(
                        operations: ["getAPMTransaction"], reason: "QR payments and a refund at rest.",
                        parameters: [("path.transactionId", "transactions")])
                ]),
            Pass(
                name: "apm: refund", filters: ["--include-operation-id", "doQRRefund"],
                dictionaries: ["payments": [ids["paid"]!, ids["declined"]!, ids["refunded"]!, ids["refund"]!]],
                numbers: ["amounts": amounts],
                settings: [
                    Settings(
                        operations: ["doQRRefund"],
                        reason: """
                            A paid payment (201 until nothing is left, 409 terminal_busy while a refund waits), a declined \
                            one, a refunded one and a refund (409). \(terminalRules)
                            """,
                        parameters: [("body.refundedTransactionId", "payments"), ("body.refundAmount", "amounts")],
                        positiveStatuses: ["2xx", "400", "401", "403", "404", "409"], disabledChecks: [allowHeaderCheck])
                ],
                prepare: { pass in try free(&pass) }),
            Pass(
                name: "apm: payment", filters: ["--include-operation-id", "doQRPayment"],
                dictionaries: ["brands": ["ALIPAY", "WECHATPAY", "PAYCONIQ", "TWINT"]],
                numbers: ["amounts": amounts],
                settings: [
                    Settings(
                        operations: ["doQRPayment"],
                        reason: """
                            The terminal's brands and one it has not (400 apm_brand_unavailable), ordinary amounts: the \
                            first order is 201, the ones after it 409 terminal_busy while it waits. \(terminalRules)
                            """,
                        parameters: [("body.brand", "brands"), ("body.requestedAmount", "amounts")],
                        positiveStatuses: ["2xx", "400", "401", "409"], disabledChecks: [allowHeaderCheck])
                ],
                prepare: { pass in try free(&pass) }),
            Pass(
                name: "apm: cancel", filters: ["--include-operation-id-regex", "^(cancelQRPayment|getAPMTransaction)$"],
                settings: [],
                prepare: { pass in
                    try free(&pass)
                    let open = try order(1500)
                    pass.dictionaries["transactions"] = [open, ids["paid"]!, ids["cancelled"]!, ids["refund"]!]
                    pass.settings = [
                        Settings(
                            operations: ["cancelQRPayment"],
                            reason: "An open order (200 once, then 409 apm_order_closed), a paid one (409 apm_already_paid), a cancelled one and a refund (409).",
                            parameters: [("path.transactionId", "transactions")],
                            positiveStatuses: ["2xx", "400", "401", "404", "409"]),
                        Settings(
                            operations: ["getAPMTransaction"], reason: "The same transactions.",
                            parameters: [("path.transactionId", "transactions")]),
                    ]
                }),
            Pass(
                name: "provider: notifications", filters: ["--include-tag", "provider"],
                settings: [
                    Settings(
                        operations: ["takeWalletNotification"],
                        reason: """
                            Generated requests cannot carry a valid Wallet-Signature (an HMAC of the body with the region's \
                            secret): every one is rightly 401 provider_signature_invalid. The signed ones are covered by \
                            HostPaymentTests' QRNotificationTests.
                            """,
                        positiveStatuses: ["401"])
                ]),
        ]
    }
}
