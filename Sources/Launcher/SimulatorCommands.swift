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
        examples: ["portal-sim --environments EU=http://127.0.0.1:8100", "portal-sim --endpoints .sandbox/endpoints.json"])

    public static func run(_ options: ParsedArguments) throws {
        let resources = try Resources.locate(options)
        let port = try options.port("port") ?? UInt16(HostCommand.basePort + resources.catalogue.regions.count)
        let environments = try hosts(options, catalogue: resources.catalogue).map { environment in
            // The portal reaches each host's back office with the region's key from sandbox-data.
            var environment = environment
            environment.backOfficeKey = resources.catalogue.region(environment.region).map { resources.fixtures($0).backOfficeKey }
            return environment
        }
        let clock = SandboxClock()
        let configuration = PortalSimulator.Configuration(
            server: try Listening.server(options, port: port), webRoot: resources.web.appendingPathComponent("portal"),
            openAPIFile: resources.openAPI.appendingPathComponent("portal.yaml"), environments: environments,
            accessLog: try Listening.accessLog(options, clock: clock))
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
    static func hosts(_ options: ParsedArguments, catalogue: EnvironmentCatalogue) throws -> [PortalSimulator.Environment] {
        var hosts: [String: String] = [:]
        if let file = options.string("endpoints") {
            // `sandbox up` writes every service's URL: a file without them is not one it wrote.
            guard let endpoints = try? EndpointsFile.load(from: URL(fileURLWithPath: file)),
                endpoints.portal != nil, endpoints.wallet != nil, endpoints.webhooks != nil
            else { throw UsageError("--endpoints: \(file) is not an endpoints.json written by 'sandbox up'") }
            hosts = endpoints.environments
        }
        if let list = options.string("environments") {
            for pair in list.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let url = URL(string: parts[1]), url.scheme == "http" || url.scheme == "https",
                    url.host != nil
                else { throw UsageError("--environments: '\(pair)' is not REGION=http://host:port") }
                hosts[parts[0]] = parts[1]
            }
        }
        for region in hosts.keys where catalogue.region(region) == nil {
            throw UsageError("unknown region '\(region)'; known: \(catalogue.regions.map(\.id).joined(separator: ", "))")
        }
        return catalogue.regions.compactMap { region in hosts[region.id].map { .init(region: region.id, url: $0) } }
    }
}

/// `wallet-sim [--port N]`
public enum WalletCommand {
    public static let description = CommandDescription(
        name: "wallet-sim",
        summary: "Runs the APM/BLIK wallet simulator: the customer and the wallet provider.",
        options: [.value("port", "N", "TCP port (default: the port after the portal's, 8110).")]
            + Listening.options(defaultPort: nil, accessLogDefault: "-") + Resources.options,
        examples: ["wallet-sim", "wallet-sim --port 9110 --host 0.0.0.0"])

    public static func run(_ options: ParsedArguments) throws {
        let resources = try Resources.locate(options)
        let port = try options.port("port") ?? UInt16(HostCommand.basePort + resources.catalogue.regions.count + 1)
        let clock = SandboxClock()
        let configuration = WalletSimulator.Configuration(
            server: try Listening.server(options, port: port), webRoot: resources.web.appendingPathComponent("wallet"),
            openAPIFile: resources.openAPI.appendingPathComponent("wallet.yaml"),
            accessLog: try Listening.accessLog(options, clock: clock))
        if options.flag("dry-run") {
            printJSON(["service": "wallet-sim", "host": configuration.server.host, "port": Int(port)])
            return
        }
        try serveUntilSignalled({ try WalletSimulator.start(configuration: configuration) }) { "wallet-sim listening on \($0)" }
    }
}
