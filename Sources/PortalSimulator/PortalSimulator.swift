import Foundation
import SandboxHTTP
import SandboxHTTPClient

/// The merchant-portal simulator: the pages under `web/portal/` and the JSON API behind them.
///
/// The portal talks to the environment hosts server to server with each region's back-office
/// key, as a real acquirer's portal talks to its back office: the browser only ever calls the
/// portal (`/api/...`, described in `openapi/portal.yaml`), and a host's refusal reaches the page
/// as the host's own error envelope.
public final class PortalSimulator: RunningService, Responder {
    /// One environment host the portal drives.
    public struct Environment: Codable, Equatable, Sendable {
        public var region: String
        public var url: String
        /// The region's back-office key (from `sandbox-data`); without it the portal can only
        /// show whether the host is up.
        public var backOfficeKey: String?

        public init(region: String, url: String, backOfficeKey: String? = nil) {
            self.region = region
            self.url = url
            self.backOfficeKey = backOfficeKey
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
        /// The wallet and the webhook inbox of the sandbox, which `/api/sandbox/…` resets and
        /// snapshots with the hosts.
        public var walletURL: String?
        public var inboxURL: String?
        public var accessLog: AccessLog?

        public init(
            server: ServerConfiguration, webRoot: URL, openAPIFile: URL, environments: [Environment] = [], walletURL: String? = nil,
            inboxURL: String? = nil, accessLog: AccessLog? = nil
        ) {
            self.server = server
            self.webRoot = webRoot
            self.openAPIFile = openAPIFile
            self.environments = environments
            self.walletURL = walletURL
            self.inboxURL = inboxURL
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

    /// `GET /api/environments`: the hosts, and where the sandbox's wallet and webhook inbox are (the
    /// home page links them); nil members are left out.
    struct EnvironmentList: Encodable {
        let environments: [EnvironmentStatus]
        let wallet: String?
        let inbox: String?
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
    /// The routes, behind the key when the portal has one.
    private let responder: any Responder

    /// Builds the routes without listening (in-process tests answer through `respond(to:)`).
    public init(configuration: Configuration, client: HTTPClient = PortalSimulator.hostClient) throws {
        var router = Router()
        router.get("/healthz") { _ in .json(["status": "ok", "service": "portal"]) }
        let environments = configuration.environments
        let hosts = HostLinks(environments, client: client)
        let (walletURL, inboxURL) = (configuration.walletURL, configuration.inboxURL)
        router.get("/api/environments") { _ in
            .json(EnvironmentList(environments: environments.map { Self.status(of: $0, client: client) }, wallet: walletURL, inbox: inboxURL))
        }
        router.get("/api/environments/{region}") { request in
            // The browser only talks to the portal: a host's own entry is relayed, server to server.
            let host = try hosts.link(request.parameter("region"))
            guard let response = try? client.send(HTTPClientRequest(url: host.environment.url + "/v1/environment")),
                response.status == 200
            else { throw HostLink.unavailable(host.environment.region) }
            return .json(bytes: response.body)
        }
        Self.addRegistrationRoutes(to: &router, hosts: hosts)
        for relay in Self.relays { relay.register(on: &router, hosts: hosts, controlKey: configuration.server.controlKey) }
        let services =
            environments.map { ControlledService(name: $0.region, url: $0.url) }
            + [configuration.walletURL.map { ControlledService(name: "wallet", url: $0) }, configuration.inboxURL.map { ControlledService(name: "webhooks", url: $0) }]
            .compactMap { $0 }
        Self.addSandboxRoutes(to: &router, services: services, controlKey: configuration.server.controlKey)
        try router.serveOpenAPI(configuration.openAPIFile)
        router.fallback = StaticFiles(root: configuration.webRoot)
        // With a key (a portal that listens beyond loopback), the back office is not open to
        // whoever reaches the machine: every API route but the list of regions needs the key, which
        // the pages send once it is typed on the Sandbox page.
        let responder: any Responder = configuration.server.controlKey.map { ControlGate(key: $0, inner: router, isControl: Self.needsKey) } ?? router
        self.responder = responder
        self.server = Server(name: "portal", configuration: configuration.server, responder: responder, accessLog: configuration.accessLog)
    }

    /// What needs the control key on a portal that has one: every `/api/` route (merchants' data,
    /// webhook secrets, registrations, the journal and sandbox control) but reading the regions
    /// the portal drives, which the pages' region picker does first.
    @Sendable static func needsKey(_ request: Request) -> Bool {
        request.path.hasPrefix("/api/") && !(request.method == "GET" && request.path.hasPrefix("/api/environments"))
    }

    /// Builds the service and starts listening.
    public static func start(configuration: Configuration) throws -> PortalSimulator {
        let portal = try PortalSimulator(configuration: configuration)
        try portal.server.start()
        return portal
    }

    public func respond(to request: Request) -> Response { responder.respond(to: request) }

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
