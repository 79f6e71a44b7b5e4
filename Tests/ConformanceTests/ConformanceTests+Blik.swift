import Foundation
import HostTestSupport
import SandboxWire
import SandboxTestSupport

/// The BLIK passes (docs/blik.md): a device on MBANK-T0101 (blikEnabled, PLN) of an mBank host
/// started with `--wallet-url` at HostUnderTest's ``WalletProviderDouble``, which issued the codes
/// the generated payments draw; BLIK payments in every final status made over HTTP first.
extension ConformanceTests {
    static let blikRegion = "MBANK"

    /// The double the mBank host calls; kept alive for the whole test by the host under test.
    static func blikWallet() throws -> WalletProviderDouble {
        try WalletProviderDouble(region: blikRegion)
    }

    static func blikPasses(host: HostUnderTest, wallet: WalletProviderDouble, fixtures: Fixtures) throws -> [Pass] {
        typealias Settings = Schemathesis.OperationSettings
        guard let terminal = fixtures.terminals.first(where: { $0.id == "MBANK-T0101" && $0.registerOptions.contains("portal") }) else {
            throw HarnessError("merchants.json: MBANK-T0101 (blikEnabled) takes no portal registration")
        }
        let device = try PaymentDevice(host: host, terminal: terminal, device: "conformance-blik-device", pin: "1357", fixtures)
        let api = Service(name: blikRegion, baseURL: host.base)
        var issued = 0
        /// A code the double's bank issued, never used.
        func freshCode() -> String {
            issued += 1
            let code = String(300_000 + issued)
            wallet.issueBlikCode(code)
            return code
        }
        func pay(_ amount: Int) throws -> String {
            let made = try host.expect(
                201, "POST", "/terminal/v1/apm/blik/payments", body: ["requestedAmount": amount, "payCode": freshCode()], bearer: device.token)
            guard let id = made["transactionId"] as? String else { throw HarnessError("doBlikPayment gave no transactionId: \(made)") }
            return id
        }
        func notify(_ type: WalletProvider.NotificationType, _ order: String, refund: String? = nil, reason: String? = nil) throws {
            let (body, headers) = try wallet.signed(wallet.notification(type, order: order, refund: refund, paymentId: "blik", reason: reason))
            let reply = api.call("POST", "/provider/v1/notifications", raw: body, headers: headers)
            guard reply.status == 204 else { throw HarnessError("notifying \(type.rawValue): \(reply)") }
        }
        var ids: [String: String] = [:]
        ids["paid"] = try pay(1000)
        try notify(.orderPaid, ids["paid"]!)
        ids["declined"] = try pay(1000)
        try notify(.orderDeclined, ids["declined"]!, reason: "insufficient_funds")
        ids["cancelled"] = try pay(1000)
        try host.expect(200, "POST", "/terminal/v1/apm/transactions/\(ids["cancelled"]!)/cancel", body: [:], bearer: device.token)
        ids["refunded"] = try pay(2000)
        try notify(.orderPaid, ids["refunded"]!)
        let refund = try host.expect(
            201, "POST", "/terminal/v1/apm/blik/refunds", body: ["refundedTransactionId": ids["refunded"]!, "refundAmount": 2000],
            bearer: device.token)
        ids["refund"] = refund["transactionId"] as? String ?? ""
        try notify(.refundSucceeded, ids["refunded"]!, refund: ids["refund"])
        let amounts = [100, 500, 1000, 2000]
        let terminalRules = """
            The terminal's rules are no schema's business: an amount above its limitAmount (amount_over_limit), a tip \
            above its maximum (tip_over_limit) are rightly 400 for schema-valid requests.
            """
        /// Past every BLIK deadline (blikTimeout 120 s, apmRefundTimeout 60 s), so what a pass left in flight times out.
        func free(_ pass: inout Pass) throws {
            try device.advanceClock(seconds: 121)
            pass.authorization = device.token
        }
        return [
            Pass(
                name: "blik: reads", filters: ["--include-operation-id", "getAPMTransaction"], authorization: device.token,
                dictionaries: ["transactions": ids.keys.sorted().compactMap { ids[$0] }],
                settings: [
                    Settings(
                        operations: ["getAPMTransaction"], reason: "BLIK payments and a refund at rest.",
                        parameters: [("path.transactionId", "transactions")])
                ]),
            Pass(
                name: "blik: refund", filters: ["--include-operation-id", "doBlikRefund"],
                dictionaries: ["payments": [ids["paid"]!, ids["declined"]!, ids["refunded"]!, ids["refund"]!]],
                numbers: ["amounts": amounts],
                settings: [
                    Settings(
                        operations: ["doBlikRefund"],
                        reason: """
                            A paid payment (201 until nothing is left, 409 terminal_busy while a refund waits), a declined \
                            one, a refunded one and a refund (409). \(terminalRules)
                            """,
                        parameters: [("body.refundedTransactionId", "payments"), ("body.refundAmount", "amounts")],
                        positiveStatuses: ["2xx", "400", "401", "403", "404", "409"], disabledChecks: [allowHeaderCheck])
                ],
                prepare: { pass in try free(&pass) }),
            Pass(
                name: "blik: payment", filters: ["--include-operation-id", "doBlikPayment"],
                dictionaries: ["codes": (0..<20).map { _ in freshCode() } + ["999999", "12345"]],
                numbers: ["amounts": amounts],
                settings: [
                    Settings(
                        operations: ["doBlikPayment"],
                        reason: """
                            Codes the bank issued (the first payment is 201, the ones after it 409 terminal_busy while it \
                            waits), an unknown one (404 blik_code_unknown) and a short one (400 blik_code_invalid); a \
                            generated verificationCode beside a 6-digit code is rightly 400 blik_code_invalid. \(terminalRules) \
                            Generated codes are unknown, and past five a minute from one terminal the host rightly answers 429 \
                            too_many_attempts.
                            """,
                        parameters: [("body.payCode", "codes"), ("body.requestedAmount", "amounts")],
                        positiveStatuses: ["2xx", "400", "401", "403", "404", "409", "410", "429"], disabledChecks: [allowHeaderCheck])
                ],
                prepare: { pass in try free(&pass) }),
        ]
    }
}
