import Foundation
import SandboxCore
import SandboxHTTP
import SandboxWire
import Synchronization
import Testing
import TestSupport
import WalletSimulator
import WebhookSignature

/// The secrets of `sandbox-data/wallet.json`, read once.
let walletData: WalletData = {
    (try? WalletData.load(contentsOf: Paths.sandboxData.appendingPathComponent(WalletData.fileName))) ?? WalletData(secrets: [:])
}()

/// A wallet started in this process on a port the system picks, its database in a temporary
/// folder (pass a previous wallet's folder to restart on the same state), its clock at hand,
/// sending its notifications to `hosts`.
final class TestWallet: @unchecked Sendable {
    let directory: TemporaryDirectory
    let wallet: WalletSimulator
    let clock: SandboxClock
    let service: Service

    init(directory: TemporaryDirectory = TemporaryDirectory(), hosts: [String: String] = [:], payWait: Duration = .seconds(2)) throws {
        self.directory = directory
        clock = SandboxClock()
        wallet = try WalletSimulator.start(
            configuration: .init(
                server: ServerConfiguration(drainSeconds: 0.1), webRoot: Paths.web.appendingPathComponent("wallet"),
                openAPIFile: Paths.openAPI.appendingPathComponent("wallet.yaml"), dataDirectory: directory.file("state"),
                data: walletData, hostURLs: hosts, clock: clock, firstRetry: .milliseconds(50), longestRetry: .milliseconds(200),
                payWait: payWait))
        service = Service(name: "wallet", baseURL: wallet.url)
    }

    func stop() { wallet.stop() }

    /// A request of the provider API, signed as `region`'s host (or with `secret` instead of its own).
    func provider(
        _ method: String, _ path: String, _ body: [String: Any]? = nil, region: String = "EU", secret: String? = nil,
        signature: String?? = .none, timestamp: Int = Int(Date().timeIntervalSince1970)
    ) -> HTTPReply {
        let bytes = body.map { Array((try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys])) ?? Data()) } ?? []
        let key = secret ?? walletData.secrets[region] ?? "no-secret-for-this-region"
        var headers = ProviderSignature.headers(region: region, secret: key, body: bytes, timestamp: timestamp)
        if case .some(let replaced) = signature {
            headers.removeAll { $0.0 == WalletProvider.signatureHeader }
            if let replaced { headers.append((WalletProvider.signatureHeader, replaced)) }
        }
        return service.call(method, path, raw: bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self), headers: headers)
    }

    /// Makes an order as EU's host does; `change` edits the request first.
    @discardableResult
    func makeOrder(
        _ id: String = "tx-" + String(UInt32.random(in: 1...UInt32.max)), amount: Int = 1250, terminal: String = "EU-T0101",
        expiresIn: Int = 300, change: (inout [String: Any]) -> Void = { _ in }
    ) -> HTTPReply {
        var body: [String: Any] = [
            "orderId": id, "region": "EU", "merchantId": "EU-M01", "merchantName": "Café Lumière", "terminalId": terminal,
            "amount": amount, "currency": "EUR", "brand": "ALIPAY", "brandFullName": "Alipay+", "reference": "INV-1",
            "expiresInSeconds": expiresIn,
        ]
        change(&body)
        return provider("POST", "/provider/v1/orders", body)
    }

    func order(_ id: String) -> HTTPReply { service.call("GET", "/api/orders/\(id)") }

    func press(_ action: String, _ id: String, body: [String: Any]? = nil) -> HTTPReply {
        service.call("POST", "/api/orders/\(id)/\(action)", body: body)
    }

    /// Moves the wallet's clock (what fell due is carried out before the answer).
    @discardableResult
    func advance(_ seconds: Double) -> HTTPReply {
        service.call("POST", "/_sandbox/clock", body: ["advanceSeconds": seconds])
    }
}

/// What a host answers to the wallet's notifications.
enum HostAnswer: Sendable {
    case acknowledge
    /// 409 with the envelope, as a host whose order closed.
    case refuse(String)
    /// 503: the wallet must try again.
    case fail
}

/// Stands for a host: records every notification the wallet sends it (after checking its
/// `Wallet-Signature` with the region's secret) and answers as told.
final class FakeHost: Sendable {
    let server: Server
    private let received = Mutex<[WalletProvider.Notification]>([])
    private let answers = Mutex<HostAnswer>(.acknowledge)
    private let badSignatures = Mutex(0)

    init(port: UInt16 = 0) throws {
        final class Box: @unchecked Sendable { weak var host: FakeHost? }
        let box = Box()
        var router = Router()
        router.post("/provider/v1/notifications") { request in
            guard let host = box.host else { return Response(status: 503) }
            return host.answer(request)
        }
        server = Server(name: "fake-host", configuration: ServerConfiguration(port: port, drainSeconds: 0.1), responder: router)
        box.host = self
        try server.start()
    }

    var url: String { "http://127.0.0.1:\(server.port)" }
    var notifications: [WalletProvider.Notification] { received.withLock { $0 } }
    var unsignedCount: Int { badSignatures.withLock { $0 } }

    func answer(with answer: HostAnswer) { answers.withLock { $0 = answer } }

    func stop() { server.stop() }

    /// The notifications about one order, as `type:reason` strings in the order they came.
    func types(of orderId: String) -> [String] {
        notifications.filter { $0.orderId == orderId }.map { $0.type.rawValue }
    }

    private func answer(_ request: Request) -> Response {
        let region = request.header(WalletProvider.regionHeader) ?? ""
        do {
            try WebhookVerifier.verify(
                scheme: .monei, headers: ["monei-signature": request.header(WalletProvider.signatureHeader) ?? ""],
                body: request.body, secret: walletData.secrets[region] ?? "")
        } catch {
            badSignatures.withLock { $0 += 1 }
            return HTTPError(status: 401, code: .providerSignatureInvalid, message: "bad signature").response
        }
        guard let notification = try? JSONDecoder().decode(WalletProvider.Notification.self, from: Data(request.body)) else {
            return Response(status: 400)
        }
        switch answers.withLock({ $0 }) {
        case .acknowledge:
            received.withLock { $0.append(notification) }
            return Response(status: 204)
        case .refuse(let message):
            received.withLock { $0.append(notification) }
            return HTTPError(status: 409, code: .apmOrderClosed, message: message).response
        case .fail:
            return Response(status: 503)
        }
    }
}
