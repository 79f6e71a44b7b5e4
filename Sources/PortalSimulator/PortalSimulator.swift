import Foundation
import SandboxHTTP
import SandboxHTTPClient
import SandboxWire

/// The merchant-portal simulator: the pages under `web/portal/` and the JSON API behind them.
///
/// The portal talks to the environment hosts server to server, as a real back office does:
/// the browser only ever calls the portal. So far it lists the hosts it drives with what each
/// reports about itself (`GET /api/environments`); the back-office flows arrive with the
/// terminal lifecycle.
public final class PortalSimulator: RunningService, Responder {
    /// One environment host the portal drives.
    public struct Environment: Codable, Equatable, Sendable {
        public var region: String
        public var url: String

        public init(region: String, url: String) {
            self.region = region
            self.url = url
        }
    }

    public struct Configuration: Sendable {
        public var server: ServerConfiguration
        /// `web/portal`.
        public var webRoot: URL
        /// `openapi/portal.yaml`.
        public var openAPIFile: URL
        /// The hosts, in catalogue order.
        public var environments: [Environment]
        public var accessLog: AccessLog?

        public init(
            server: ServerConfiguration, webRoot: URL, openAPIFile: URL, environments: [Environment] = [],
            accessLog: AccessLog? = nil
        ) {
            self.server = server
            self.webRoot = webRoot
            self.openAPIFile = openAPIFile
            self.environments = environments
            self.accessLog = accessLog
        }
    }

    /// What `GET /api/environments` tells about one host.
    struct EnvironmentStatus: Encodable {
        let region: String
        let url: String
        /// `up` when the host answered its catalogue entry, else `down`.
        let status: String
        let flavour: String?
        let currency: String?
        let name: String?
    }

    /// The part of a host's `GET /v1/environment` the portal shows.
    private struct HostEnvironment: Decodable {
        let id: String
        let flavour: String
        let currency: String
        let name: String
    }

    public let name = "portal"
    public let server: Server
    private let router: Router

    /// Builds the routes without listening (in-process tests answer through `respond(to:)`).
    public init(configuration: Configuration, client: HTTPClient = PortalSimulator.hostClient) throws {
        var router = Router()
        router.get("/healthz") { _ in .json(["status": "ok", "service": "portal"]) }
        let environments = configuration.environments
        router.get("/api/environments") { _ in
            .json(["environments": environments.map { Self.status(of: $0, client: client) }])
        }
        router.get("/api/environments/{region}") { request in
            // The browser only talks to the portal: a host's own entry is relayed, server to server.
            guard let environment = environments.first(where: { $0.region == request.parameter("region") }) else {
                throw HTTPError(
                    status: 404, code: .environmentNotFound, message: "The portal drives no host for that region.",
                    field: "region")
            }
            guard let response = try? client.send(HTTPClientRequest(url: environment.url + "/v1/environment")),
                response.status == 200
            else {
                throw HTTPError(
                    status: 502, code: .environmentUnavailable,
                    message: "The \(environment.region) host at \(environment.url) does not answer.")
            }
            return .json(bytes: response.body)
        }
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

    /// Hosts are local: a host that does not answer within a second is reported down.
    public static let hostClient = HTTPClient(
        configuration: .init(connectTimeout: .seconds(1), totalTimeout: .seconds(2), userAgent: "TapSandbox-portal"))

    private static func status(of environment: Environment, client: HTTPClient) -> EnvironmentStatus {
        let reported: HostEnvironment? = {
            guard let response = try? client.send(HTTPClientRequest(url: environment.url + "/v1/environment")),
                response.status == 200
            else { return nil }
            return try? JSONDecoder().decode(HostEnvironment.self, from: Data(response.body))
        }()
        // A host that answers for another region is misconfigured, not up.
        let host = reported?.id == environment.region ? reported : nil
        return EnvironmentStatus(
            region: environment.region, url: environment.url, status: host == nil ? "down" : "up",
            flavour: host?.flavour, currency: host?.currency, name: host?.name)
    }
}
