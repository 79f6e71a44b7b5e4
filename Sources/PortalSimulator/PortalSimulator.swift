import Foundation
import SandboxHTTP

/// The merchant-portal simulator: the pages under `web/portal/` and the JSON API behind them.
///
/// So far it serves its landing page and tells the page which environment hosts exist
/// (`GET /api/environments`); the back-office flows arrive with the terminal lifecycle.
public final class PortalSimulator: RunningService, Responder {
    public struct Configuration: Sendable {
        public var server: ServerConfiguration
        /// `web/portal`.
        public var webRoot: URL
        /// `openapi/portal.yaml`.
        public var openAPIFile: URL
        /// Region id → base URL of its host, as `sandbox up` started them.
        public var environments: [String: String]
        public var accessLog: AccessLog?

        public init(
            server: ServerConfiguration, webRoot: URL, openAPIFile: URL, environments: [String: String] = [:],
            accessLog: AccessLog? = nil
        ) {
            self.server = server
            self.webRoot = webRoot
            self.openAPIFile = openAPIFile
            self.environments = environments
            self.accessLog = accessLog
        }
    }

    public let name = "portal"
    public let server: Server
    private let router: Router

    /// Builds the routes without listening (in-process tests answer through `respond(to:)`).
    public init(configuration: Configuration) throws {
        var router = Router()
        router.get("/healthz") { _ in .json(["status": "ok", "service": "portal"]) }
        let environments = configuration.environments
        router.get("/api/environments") { _ in .json(["environments": environments]) }
        try router.serveOpenAPI(configuration.openAPIFile)
        router.fallback = StaticFiles(root: configuration.webRoot)
        self.router = router
        self.server = Server(name: "portal", configuration: configuration.server, responder: router, accessLog: configuration.accessLog)
    }

    /// Builds the service and starts listening.
    public static func start(configuration: Configuration) throws -> PortalSimulator {
        let portal = try PortalSimulator(configuration: configuration)
        try portal.server.start()
        return portal
    }

    public func respond(to request: Request) -> Response { router.respond(to: request) }
}
