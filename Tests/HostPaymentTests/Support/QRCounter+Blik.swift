import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

/// The BLIK side of the bench (docs/blik.md): the mBank host with MBANK-T0101 (blikEnabled,
/// PLN, blikTimeout 120 s), the double playing the customer's bank.
extension QRCounter {
    /// The mBank host and MBANK-T0101 logged in (or `terminalID`).
    static func blik(
        terminalID: String = "MBANK-T0101", directory: TemporaryDirectory = TemporaryDirectory(), walletURL: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> QRCounter {
        try await open(region: "MBANK", terminalID: terminalID, directory: directory, walletURL: walletURL, sourceLocation: sourceLocation)
    }

    func blikPay(
        _ amount: Int, code: String, verification: String? = nil, tip: Int? = nil, reference: String? = nil, key: String? = nil,
        extra: [String: Any] = [:], token: String? = nil
    ) async -> HTTPReply {
        var body: [String: Any] = ["requestedAmount": amount, "payCode": code]
        if let verification { body["verificationCode"] = verification }
        if let tip { body["tipAmount"] = tip }
        if let reference { body["reference"] = reference }
        body.merge(extra) { $1 }
        return await service.call(
            "POST", "/terminal/v1/apm/blik/payments", bearer: token ?? self.token, body: body,
            headers: key.map { [("Idempotency-Key", $0)] } ?? [])
    }

    /// The bank issues `code`, the terminal pays `amount` with it: the ONGOING payment's id.
    func blikPayment(
        _ amount: Int, code: String = "123456", verification: String? = nil, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        wallet.issueBlikCode(code, verification: verification)
        let reply = expectReply(await blikPay(amount, code: code, verification: verification), 201, nil, step, sourceLocation: sourceLocation)
        #expect(reply.string("transactionStatus") == "ONGOING", "\(step): \(reply)", sourceLocation: sourceLocation)
        return try #require(reply.string("transactionId"), "\(step): \(reply)", sourceLocation: sourceLocation)
    }

    func blikRefund(_ id: String, amount: Int, reference: String? = nil, key: String? = nil) async -> HTTPReply {
        var body: [String: Any] = ["refundedTransactionId": id, "refundAmount": amount]
        if let reference { body["reference"] = reference }
        return await service.call(
            "POST", "/terminal/v1/apm/blik/refunds", bearer: token, body: body, headers: key.map { [("Idempotency-Key", $0)] } ?? [])
    }

    /// Registers and logs in another terminal of the same host: its session token.
    func secondTerminal(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let terminal = try host.terminal(id, sourceLocation: sourceLocation) { $0.id == id }
        let device = try await host.register(terminal, sourceLocation: sourceLocation)
        return try await host.login(device, autoLogin: terminal.autoLogin, sourceLocation: sourceLocation)
    }

    /// How many transactions the terminal's history holds.
    func historyTotal() async -> Int? {
        await service.call("GET", "/terminal/v1/transactions", bearer: token).int("total")
    }
}
