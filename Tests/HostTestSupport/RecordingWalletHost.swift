import Foundation
import SandboxHTTP
import SandboxWire
import Synchronization
import WebhookSignature

/// What a host answers to the wallet's notifications.
public enum HostAnswer: Sendable {
    case acknowledge
    /// 409 with the envelope, as a host whose order closed.
    case refuse(String)
    /// 503: the wallet must try again.
    case fail
}

/// Stands for an environment host at the wallet: records every notification the wallet sends it (after checking its
/// `Wallet-Signature` with the region's secret) and answers as told.
public final class RecordingWalletHost: Sendable {
    public let server: Server
    private let received = Mutex<[WalletProvider.Notification]>([])
    private let answers = Mutex<HostAnswer>(.acknowledge)
    private let badSignatures = Mutex(0)
    private let failures = Mutex(0)

    public init(port: UInt16 = 0) throws {
        final class Box: @unchecked Sendable { weak var host: RecordingWalletHost? }
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

    public var url: String { "http://127.0.0.1:\(server.port)" }
    public var notifications: [WalletProvider.Notification] { received.withLock { $0 } }
    public var unsignedCount: Int { badSignatures.withLock { $0 } }
    /// Notifications answered 503 (`.fail`).
    public var failedCount: Int { failures.withLock { $0 } }

    public func answer(with answer: HostAnswer) { answers.withLock { $0 = answer } }

    public func stop() { server.stop() }

    /// The notifications about one order, as `type:reason` strings in the order they came.
    public func types(of orderId: String) -> [String] {
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
            failures.withLock { $0 += 1 }
            return Response(status: 503)
        }
    }
}
