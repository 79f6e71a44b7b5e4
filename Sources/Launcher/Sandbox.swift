import WalletRules
import EnvironmentHost
import Foundation
import PortalSimulator
import SandboxCore
import SandboxHTTP
import SandboxWire
import WalletSimulator
import WebhookInbox

/// Every environment host, the portal, the wallet and the webhook inbox in one process on consecutive ports.
///
/// The Worldline regions of the catalogue listen on `basePort + i`, then come the portal, the wallet
/// and the inbox, then the regions of other vendors (``PortLayout``): with the default 8100, EU is
/// 8100, MBANK 8108, the portal 8109, the wallet 8110, the webhook inbox 8111, MONEI 8112, PAGBANK 8113 and GEOPAGOS 8114.
///
/// ```swift
/// let sandbox = try Sandbox.start(configuration: .init(resources: resources, basePort: 8100, …))
/// print(sandbox.table)
/// ```
public final class Sandbox: Sendable {
    public struct Configuration: Sendable {
        public var resources: Resources
        public var basePort: Int
        /// Template for every service's server; its port is replaced.
        public var server: ServerConfiguration
        public var dataDirectory: URL
        public var flavour: Flavour
        public var accessLog: AccessLog?
        /// The base of the wallet's pay-page URLs (what the QR codes carry); `nil`: the wallet's own URL.
        public var walletPublicURL: String?
        /// What the hosts' sandbox clocks run on: real time by default; a test that must not race
        /// real time on a loaded machine gives a fixed instant, and the clocks move only when told.
        public var clockBase: @Sendable () -> Date = { Date() }
        /// The regions whose hosts run (ids of the catalogue); nil: every region. Each keeps its
        /// port of the layout, and the portal and the wallet know only the hosts that run.
        public var regions: [String]? = nil
        /// A PostgreSQL database for every host (a schema per region) and the wallet (schema
        /// `wallet`) instead of the SQLite files in ``dataDirectory``; nil: SQLite.
        public var database: String? = nil

        /// `<data-dir>/snapshots`: where every service keeps its part of each named snapshot.
        public var snapshotDirectory: URL { dataDirectory.appendingPathComponent("snapshots") }

        public init(
            resources: Resources, basePort: Int, server: ServerConfiguration, dataDirectory: URL, flavour: Flavour,
            accessLog: AccessLog?, walletPublicURL: String? = nil
        ) {
            self.resources = resources
            self.basePort = basePort
            self.server = server
            self.dataDirectory = dataDirectory
            self.flavour = flavour
            self.accessLog = accessLog
            self.walletPublicURL = walletPublicURL
        }

        /// The catalogue's regions that run, in catalogue order.
        ///
        /// - Throws: ``UnknownRegion`` for an id the catalogue does not have.
        public func selectedRegions() throws -> [Region] {
            let all = resources.catalogue.regions
            guard let regions else { return all }
            if let unknown = regions.first(where: { id in !all.contains { $0.id == id } }) {
                throw UnknownRegion(id: unknown, known: all.map(\.id))
            }
            return all.filter { regions.contains($0.id) }
        }

        /// How many ports the layout takes from `basePort` on.
        public var portCount: Int { ports.count }

        /// Where each service listens, as offsets from `basePort`.
        public var ports: PortLayout { resources.catalogue.ports }

        func server(at offset: Int) -> ServerConfiguration {
            var server = server
            // Base port 0 (tests) lets the system choose every port.
            server.port = basePort == 0 ? 0 : UInt16(basePort + offset)
            return server
        }
    }

    public let configuration: Configuration
    public let hosts: [EnvironmentHost]
    public let portal: PortalSimulator
    public let wallet: WalletSimulator
    public let inbox: WebhookInbox
    /// One clock per host, as the design asks; kept here so the sandbox can hand them out.
    public let clocks: [String: SandboxClock]

    /// Starts every service; if one cannot start, those already started are stopped again.
    public static func start(configuration: Configuration) throws -> Sandbox {
        var started: [any RunningService] = []
        do {
            let resources = configuration.resources
            let ports = configuration.ports
            // The inbox starts first: the hosts send every merchant's webhooks to it.
            let regions = try configuration.selectedRegions()
            var clocks: [String: SandboxClock] = [:]
            for region in regions { clocks[region.id] = SandboxClock(base: configuration.clockBase) }
            let inbox = try WebhookInbox.start(
                configuration: .init(
                    server: configuration.server(at: ports.inbox), webRoot: resources.web.appendingPathComponent("inbox"),
                    openAPIFile: resources.openAPI.appendingPathComponent("webhook-inbox.yaml"),
                    signingKeys: resources.inboxSigningKeys, accessLog: configuration.accessLog,
                    snapshotDirectory: configuration.snapshotDirectory))
            started.append(inbox)
            var hosts: [EnvironmentHost] = []
            for region in regions {
                let clock = clocks[region.id]!
                var hostConfiguration = EnvironmentHost.Configuration(
                    region: region, flavour: configuration.flavour, fixtures: resources.fixtures(region), payments: resources.paymentData(region),
                    server: configuration.server(at: ports.offset(of: region.id)!),
                    dataDirectory: configuration.dataDirectory,
                    openAPIFile: resources.openAPIFile(region),
                    accessLog: configuration.accessLog, clock: clock,
                    webhookURL: { [url = inbox.url, region = region.id] merchant in
                        WebhookInbox.hookURL(base: url, region: region, merchant: merchant)
                    },
                    walletSecret: try resources.walletSecret(region))
                hostConfiguration.moneiStores = try resources.moneiStores(region)
                hostConfiguration.database = configuration.database
                let host = try EnvironmentHost.start(configuration: hostConfiguration)
                started.append(host)
                hosts.append(host)
            }
            var walletConfiguration = WalletSimulator.Configuration(
                server: configuration.server(at: ports.wallet), webRoot: resources.web.appendingPathComponent("wallet"),
                openAPIFile: resources.openAPI.appendingPathComponent("wallet.yaml"),
                accessLog: configuration.accessLog, dataDirectory: configuration.dataDirectory,
                data: try WalletData.load(contentsOf: resources.sandboxData.appendingPathComponent(WalletData.fileName)),
                hostURLs: Dictionary(uniqueKeysWithValues: hosts.map { ($0.name, $0.url) }),
                publicURL: configuration.walletPublicURL)
            walletConfiguration.database = configuration.database
            let wallet = try WalletSimulator.start(configuration: walletConfiguration)
            // The wallet starts after the hosts (it is told their URLs), so they learn its URL now.
            started.append(wallet)
            for host in hosts { host.useWallet(at: wallet.url) }
            // The portal last: it resets and snapshots the wallet and the inbox with the hosts.
            let portal = try PortalSimulator.start(
                configuration: .init(
                    server: configuration.server(at: ports.portal), webRoot: resources.web.appendingPathComponent("portal"),
                    openAPIFile: resources.openAPI.appendingPathComponent("portal.yaml"),
                    environments: hosts.map {
                        .init(region: $0.name, url: $0.url, backOfficeKey: $0.configuration.fixtures.backOfficeKey)
                    },
                    walletURL: wallet.url, inboxURL: inbox.url, accessLog: configuration.accessLog))
            started.append(portal)
            return Sandbox(
                configuration: configuration, hosts: hosts, portal: portal, wallet: wallet, inbox: inbox, clocks: clocks)
        } catch {
            for service in started { service.stop() }
            throw error
        }
    }

    private init(
        configuration: Configuration, hosts: [EnvironmentHost], portal: PortalSimulator, wallet: WalletSimulator,
        inbox: WebhookInbox, clocks: [String: SandboxClock]
    ) {
        self.configuration = configuration
        self.hosts = hosts
        self.portal = portal
        self.wallet = wallet
        self.inbox = inbox
        self.clocks = clocks
    }

    public var services: [any RunningService] { hosts + [portal, wallet, inbox] }

    /// The URLs this sandbox serves, as `endpoints.json` names them.
    public var endpoints: EndpointsFile {
        EndpointsFile(
            portal: portal.reachableURL, wallet: wallet.reachableURL, webhooks: inbox.reachableURL,
            environments: Dictionary(uniqueKeysWithValues: hosts.map { ($0.name, $0.reachableURL) }),
            controlKey: configuration.server.controlKey)
    }

    /// Writes `<data-dir>/endpoints.json` atomically (a reader never sees half a file).
    @discardableResult
    public func writeEndpoints() throws -> URL {
        let file = configuration.dataDirectory.appendingPathComponent("endpoints.json")
        try FileManager.default.createDirectory(at: configuration.dataDirectory, withIntermediateDirectories: true)
        try endpoints.write(to: file)
        return file
    }

    /// What listens where, for people (at the addresses others reach when the sandbox listens
    /// beyond loopback).
    public var table: String {
        var rows = [("SERVICE", "URL", "WHAT")]
        func hostRow(_ host: EnvironmentHost) {
            let settings = host.configuration.region.flavours[host.configuration.flavour]
            let mirrors = settings.hostname.map { "mirrors \($0)" } ?? "no documented hostname"
            rows.append((host.name, host.reachableURL, "\(host.configuration.region.name), \(mirrors)"))
        }
        // In port order: Worldline's regions, the portal, the wallet, the inbox, then the other vendors'.
        for host in hosts where host.configuration.region.vendor == .worldline { hostRow(host) }
        rows.append(("portal", portal.reachableURL, "merchant portal: \(portal.reachableURL)/"))
        rows.append(("wallet", wallet.reachableURL, "APM/BLIK wallet: \(wallet.reachableURL)/"))
        rows.append(("webhooks", inbox.reachableURL, "webhook inbox: \(inbox.reachableURL)/"))
        for host in hosts where host.configuration.region.vendor != .worldline { hostRow(host) }
        let first = rows.map(\.0.count).max()! + 2
        let second = rows.map(\.1.count).max()! + 2
        return rows.map { name, url, what in
            "  " + name.padding(toLength: first, withPad: " ", startingAt: 0)
                + url.padding(toLength: second, withPad: " ", startingAt: 0) + what
        }.joined(separator: "\n")
    }

    /// A region id that is not in `environments.json`.
    public struct UnknownRegion: Error, CustomStringConvertible {
        public let id: String
        public let known: [String]
        public var description: String { "no region '\(id)' in environments.json (it has \(known.joined(separator: ", ")))" }
    }

    /// Stops every service (requests in flight are finished first).
    public func stop() {
        for service in services { service.stop() }
    }
}
