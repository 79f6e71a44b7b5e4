import Foundation
import HostTestSupport
import SandboxWire
import SandboxTestSupport
import Testing

/// An EU host in this process pointed at a ``WalletProviderDouble``, with EU-T0101 (APMs on:
/// Alipay+, WeChat Pay, Payconiq) logged in: the QR payment tests' bench.
///
/// Webhooks are not delivered (no dispatcher): the merchant's endpoint is set, so each final
/// outcome writes its event, which the back office's delivery log shows.
final class QRCounter: @unchecked Sendable {
    let wallet: WalletProviderDouble
    let running: InProcessHost
    let host: Host
    let terminal: TerminalFixture
    private(set) var token: String
    let device: DeviceCredential

    var service: Service { running.service }
    var id: String { terminal.id }
    var backOfficeKey: String { host.fixture.backOfficeKey }

    private init(wallet: WalletProviderDouble, running: InProcessHost, host: Host, terminal: TerminalFixture, device: DeviceCredential, token: String) {
        self.wallet = wallet
        self.running = running
        self.host = host
        self.terminal = terminal
        self.device = device
        self.token = token
    }

    /// Starts the double and the host (on `directory`, fresh by default), logs EU-T0101 in (or
    /// `terminalID` of `region`: MBANK-T0101 for BLIK).
    static func open(
        region: String = "EU", terminalID: String? = nil, directory: TemporaryDirectory = TemporaryDirectory(), walletURL: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> QRCounter {
        let wallet = try WalletProviderDouble(region: region)
        let running = try InProcessHost(region: region, directory: directory, dispatches: false, walletURL: walletURL ?? wallet.url)
        let host = Host(
            service: running.service, fixture: try MerchantsFile.load().region(region), facts: try RegionFacts.load(region))
        let terminal =
            try terminalID.map { id in try host.terminal(id, sourceLocation: sourceLocation) { $0.id == id } }
            ?? host.counter(sourceLocation: sourceLocation)
        let device = try await host.register(terminal, sourceLocation: sourceLocation)
        let token = try await host.login(device, autoLogin: terminal.autoLogin, sourceLocation: sourceLocation)
        let counter = QRCounter(wallet: wallet, running: running, host: host, terminal: terminal, device: device, token: token)
        let merchant = try #require(host.merchant(owning: terminal.id)?.id)
        expectReply(
            await running.service.call(
                "PUT", "/backoffice/v1/merchants/\(merchant)/webhook", bearer: host.fixture.backOfficeKey,
                body: ["url": "http://127.0.0.1:9/hooks", "scheme": "monei"]),
            200, nil, "point the merchant's webhooks somewhere", sourceLocation: sourceLocation)
        return counter
    }

    func stop() {
        running.stop()
        wallet.stop()
    }

    // MARK: - Terminal API

    func pay(
        _ amount: Int, tip: Int? = nil, reference: String? = nil, brand: String = "ALIPAY", key: String? = nil, extra: [String: Any] = [:]
    ) async -> HTTPReply {
        var body: [String: Any] = ["requestedAmount": amount, "brand": brand]
        if let tip { body["tipAmount"] = tip }
        if let reference { body["reference"] = reference }
        body.merge(extra) { $1 }
        return await service.call(
            "POST", "/terminal/v1/apm/qr/payments", bearer: token, body: body, headers: key.map { [("Idempotency-Key", $0)] } ?? [])
    }

    /// Pays `amount` and requires the NEW order; its id.
    func order(_ amount: Int, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let reply = expectReply(await pay(amount), 201, nil, step, sourceLocation: sourceLocation)
        #expect(reply.string("transactionStatus") == "NEW", "\(step): \(reply)", sourceLocation: sourceLocation)
        return try #require(reply.string("transactionId"), "\(step): \(reply)", sourceLocation: sourceLocation)
    }

    func poll(_ id: String) async -> HTTPReply {
        await service.call("GET", "/terminal/v1/apm/transactions/\(id)", bearer: token)
    }

    func cancel(_ id: String, reason: String? = nil) async -> HTTPReply {
        await service.call("POST", "/terminal/v1/apm/transactions/\(id)/cancel", bearer: token, body: reason.map { ["reason": $0] } ?? [:])
    }

    func refund(_ id: String, amount: Int, reference: String? = nil, key: String? = nil) async -> HTTPReply {
        var body: [String: Any] = ["refundedTransactionId": id, "refundAmount": amount]
        if let reference { body["reference"] = reference }
        return await service.call(
            "POST", "/terminal/v1/apm/qr/refunds", bearer: token, body: body, headers: key.map { [("Idempotency-Key", $0)] } ?? [])
    }

    /// The wallet says `type` about `order` (signed by the region's secret).
    @discardableResult
    func notify(
        _ type: WalletProvider.NotificationType, order: String, refund: String? = nil, paymentId: String? = nil, reason: String? = nil,
        id: String? = nil
    ) async throws -> HTTPReply {
        let note =
            id.map { wallet.notification(type, order: order, refund: refund, paymentId: paymentId, reason: reason, id: $0) }
            ?? wallet.notification(type, order: order, refund: refund, paymentId: paymentId, reason: reason)
        return try await wallet.notify(note, host: service)
    }

    func advance(_ seconds: Int, _ step: String) async {
        await host.advanceClock(seconds, step)
    }

    // MARK: - Back office

    /// The webhook events written for `transaction`, oldest first: `(type, payload)`.
    func webhooks(of transaction: String) async -> [(type: String, payload: [String: Any])] {
        let list = await service.call("GET", "/backoffice/v1/webhooks/events?limit=500", bearer: backOfficeKey).objects("events")
        var found: [(String, [String: Any])] = []
        for event in list.reversed() where event["transactionId"] as? String == transaction {
            let id = event["id"] as? String ?? ""
            let detail = await service.call("GET", "/backoffice/v1/webhooks/events/\(id)", bearer: backOfficeKey)
            let payload = (detail.string("payload")?.data(using: .utf8)).flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]
            found.append((event["type"] as? String ?? "", payload?["data"] as? [String: Any] ?? [:]))
        }
        return found
    }
}
