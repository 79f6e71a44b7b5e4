import Foundation
import SandboxHTTP

/// The APM/BLIK wallet simulator: plays the customer and the wallet provider.
///
/// So far it serves its landing page (`web/wallet/`) and its health check; QR orders and
/// BLIK codes arrive with the wallet issue.
public final class WalletSimulator: RunningService, Responder {
    public struct Configuration: Sendable {
        public var server: ServerConfiguration
        /// `web/wallet`.
        public var webRoot: URL
        /// `openapi/wallet.yaml`.
        public var openAPIFile: URL
        public var accessLog: AccessLog?

        public init(server: ServerConfiguration, webRoot: URL, openAPIFile: URL, accessLog: AccessLog? = nil) {
            self.server = server
            self.webRoot = webRoot
            self.openAPIFile = openAPIFile
            self.accessLog = accessLog
        }
    }

    public let name = "wallet"
    public let server: Server
    private let router: Router

    public init(configuration: Configuration) throws {
        var router = Router()
        router.get("/healthz") { _ in .json(["status": "ok", "service": "wallet"]) }
        try router.serveOpenAPI(configuration.openAPIFile)
        router.fallback = StaticFiles(root: configuration.webRoot)
        self.router = router
        self.server = Server(name: "wallet", configuration: configuration.server, responder: router, accessLog: configuration.accessLog)
    }

    public static func start(configuration: Configuration) throws -> WalletSimulator {
        let wallet = try WalletSimulator(configuration: configuration)
        try wallet.server.start()
        return wallet
    }

    public func respond(to request: Request) -> Response { router.respond(to: request) }
}
