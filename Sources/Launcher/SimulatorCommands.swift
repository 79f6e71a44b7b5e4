import WalletRules
import CommandLineSupport
import Foundation
import PortalSimulator
import SandboxCore
import SandboxHTTP
import SandboxWire
import WalletSimulator

/// `portal-sim [--port N] [--environments EU=URL,ANZ=URL | --endpoints FILE]`
public enum PortalCommand {
    public static let description = CommandDescription(
        name: "portal-sim",
        summary: "Runs the merchant-portal simulator: the pages under web/portal and their JSON API.",
        options: [
            .value("port", "N", "TCP port (default: the first port after the environment hosts, 8109)."),
            .value("environments", "LIST", "Hosts the portal drives, as REGION=URL pairs separated by commas."),
            .value("endpoints", "FILE", "Read the hosts from an endpoints.json written by 'sandbox up'."),
        ] + Listening.options(defaultPort: nil, accessLogDefault: "-") + Resources.options,
        files: Resources.filesHelp,
        examples: ["portal-sim --environments EU=http://127.0.0.1:8100", "portal-sim --endpoints .sandbox/endpoints.json"])

    public static func run(_ options: ParsedArguments) throws {
        let resources = try Resources.locate(options)
        let port = try options.port("port") ?? UInt16(HostCommand.basePort + resources.catalogue.ports.portal)
        let environments = try hosts(options, catalogue: resources.catalogue).map { environment in
            // The portal reaches each host's back office with the region's key from sandbox-data.
            var environment = environment
            environment.backOfficeKey = resources.catalogue.region(environment.region).map { resources.fixtures($0).backOfficeKey }
            return environment
        }
        let clock = SandboxClock()
        // A sandbox's endpoints.json also names its wallet and inbox, which sandbox control resets and snapshots with the hosts.
        let endpoints = options.string("endpoints").flatMap { try? EndpointsFile.load(from: URL(fileURLWithPath: $0)) }
        let configuration = PortalSimulator.Configuration(
            server: try Listening.server(options, port: port), webRoot: resources.web.appendingPathComponent("portal"),
            openAPIFile: resources.openAPI.appendingPathComponent("portal.yaml"), environments: environments,
            walletURL: endpoints?.wallet, inboxURL: endpoints?.webhooks, accessLog: try Listening.accessLog(options, clock: clock))
        if options.flag("dry-run") {
            printJSON([
                "service": "portal-sim", "host": configuration.server.host, "port": Int(port),
                "environments": Dictionary(uniqueKeysWithValues: environments.map { ($0.region, $0.url) }),
            ])
            return
        }
        try serveUntilSignalled({ try PortalSimulator.start(configuration: configuration) }) { "portal-sim listening on \($0)" }
    }

    /// The REGION=URL list, or the environments of an endpoints file, in catalogue order.
    static func hosts(
        _ options: ParsedArguments, catalogue: EnvironmentCatalogue, listOption: String = "environments"
    ) throws -> [PortalSimulator.Environment] {
        var hosts: [String: String] = [:]
        if let file = options.string("endpoints") {
            // `sandbox up` writes every service's URL: a file without them is not one it wrote.
            guard let endpoints = try? EndpointsFile.load(from: URL(fileURLWithPath: file)),
                endpoints.portal != nil, endpoints.wallet != nil, endpoints.webhooks != nil
            else { throw UsageError("--endpoints: \(file) is not an endpoints.json written by 'sandbox up'") }
            hosts = endpoints.environments
        }
        if let list = options.string(listOption) {
            for pair in list.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let url = URL(string: parts[1]), url.scheme == "http" || url.scheme == "https",
                    url.host != nil
                else { throw UsageError("--\(listOption): '\(pair)' is not REGION=http://host:port") }
                hosts[parts[0]] = parts[1]
            }
        }
        for region in hosts.keys where catalogue.region(region) == nil {
            throw UsageError("unknown region '\(region)'; known: \(catalogue.regions.map(\.id).joined(separator: ", "))")
        }
        return catalogue.regions.compactMap { region in hosts[region.id].map { .init(region: region.id, url: $0) } }
    }
}

/// `wallet-sim [--port N] [--data-dir D] [--host-url EU=URL,… | --endpoints FILE] [--public-url URL]`
public enum WalletCommand {
    public static let description = CommandDescription(
        name: "wallet-sim",
        summary: "Runs the APM wallet simulator: the QR-wallet provider the hosts call, the customer's pay pages, and the BLIK bank with its bank app (/bank).",
        options: [
            .value("port", "N", "TCP port (default: the port after the portal's, 8110)."),
            .value("data-dir", "DIR", "Folder of the wallet's SQLite database (wallet.sqlite).", default: ".sandbox"),
            .value(
                "database", "URL",
                "A PostgreSQL database (postgres://user:password@db:5432/sandbox) instead of wallet.sqlite: the tables live in its schema 'wallet', and every wallet-sim started with the same URL is a replica sharing its state (docs/team.md). Default: $SANDBOX_DATABASE."),
            .value(
                "host-url", "LIST",
                "Hosts to send notifications to, as REGION=URL pairs separated by commas; the wallet connects to no other."),
            .value("endpoints", "FILE", "Read the hosts from an endpoints.json written by 'sandbox up'."),
            .value(
                "public-url", "URL",
                "Base of the pay-page URLs the QR codes carry (default: http://<host>:<port>, with --host 0.0.0.0 at this machine's network address, which a phone on the LAN reaches)."),
        ] + Listening.options(defaultPort: nil, accessLogDefault: "-") + Resources.options,
        files: Resources.filesHelp,
        examples: [
            "wallet-sim --host-url EU=http://127.0.0.1:8100",
            "wallet-sim --endpoints .sandbox/endpoints.json --port 9110",
            "wallet-sim --host-url EU=http://127.0.0.1:8100 --host 0.0.0.0 --public-url http://192.168.1.20:8110",
        ])

    public static func run(_ options: ParsedArguments) throws {
        let resources = try Resources.locate(options)
        let port = try options.port("port") ?? UInt16(HostCommand.basePort + resources.catalogue.ports.wallet)
        let data: WalletData
        do {
            data = try WalletData.load(contentsOf: resources.sandboxData.appendingPathComponent(WalletData.fileName))
        } catch { throw UsageError("\(error)") }
        let hosts = Dictionary(uniqueKeysWithValues: try PortalCommand.hosts(options, catalogue: resources.catalogue, listOption: "host-url").map { ($0.region, $0.url) })
        let publicURL = options.string("public-url")
        if let publicURL {
            guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme ?? ""), url.host?.isEmpty == false,
                url.query == nil, url.path.isEmpty || url.path == "/"
            else { throw UsageError("--public-url must be an http:// or https:// base URL such as http://192.168.1.20:8110, not '\(publicURL)'") }
        }
        let clock = SandboxClock()
        var configuration = WalletSimulator.Configuration(
            server: try Listening.server(options, port: port), webRoot: resources.web.appendingPathComponent("wallet"),
            openAPIFile: resources.openAPI.appendingPathComponent("wallet.yaml"),
            accessLog: try Listening.accessLog(options, clock: clock),
            dataDirectory: URL(fileURLWithPath: options.string("data-dir") ?? ".sandbox"), data: data, hostURLs: hosts,
            publicURL: publicURL, clock: clock)
        configuration.database = try Database.url(options)
        if options.flag("dry-run") {
            printJSON([
                "service": "wallet-sim", "host": configuration.server.host, "port": Int(port),
                "database": configuration.database.map(Database.withoutPassword)
                    ?? configuration.dataDirectory.appendingPathComponent(WalletSimulator.databaseFile).path,
                "hosts": hosts, "publicUrl": publicURL ?? "http://\(configuration.server.host):\(port)",
            ])
            return
        }
        let locks = try DataDirectoryLocks.acquire(
            configuration.dataDirectory,
            databases: configuration.database == nil ? [configuration.dataDirectory.appendingPathComponent(WalletSimulator.databaseFile)] : [],
            sandbox: false, command: "wallet-sim", ports: [Int(port)])
        defer { locks.release() }
        try serveUntilSignalled({ try WalletSimulator.start(configuration: configuration) }, locks: locks) { "wallet-sim listening on \($0)" }
    }
}
