import CommandLineSupport
import EnvironmentHost
import Foundation
import SandboxWire
import SandboxCore
import SandboxHTTP
import WebhookInbox

/// `sandbox-host --env EU [--flavour sandbox] [--port N] [--data-dir D] [--host A] [--webhook-inbox URL] [--wallet-url URL]`
public enum HostCommand {
    /// The first port of the layout `sandbox up` uses (``PortLayout``): Worldline region i listens on
    /// 8100 + i, vendor regions after the inbox (MONEI 8112, PAGBANK 8113, GEOPAGOS 8114).
    public static let basePort = 8100

    public static let description = CommandDescription(
        name: "sandbox-host",
        summary: "Runs the sandbox acquirer backend of one documented environment.",
        options: [
            .value("env", "REGION", "Region id from environments.json (EU, ANZ, PAYONE_DE, …). Required."),
            .value("flavour", "FLAVOUR", "uat, sandbox, pre or prod.", default: "sandbox"),
            .value("port", "N", "TCP port (default: the one 'sandbox up' gives the region: EU 8100 … MBANK 8108, MONEI 8112, PAGBANK 8113, GEOPAGOS 8114)."),
            .value("data-dir", "DIR", "Folder of the host's SQLite database.", default: ".sandbox"),
            .value(
                "database", "URL",
                "A PostgreSQL database (postgres://user:password@db:5432/sandbox) instead of the SQLite file in --data-dir: the region's tables live in a schema of its name, and every host started with the same URL and --env is a replica sharing its state (docs/team.md). Default: $SANDBOX_DATABASE."),
            .value(
                "webhook-lease", "SECONDS",
                "With --database: how long a replica's claim on a webhook delivery lasts before another replica takes it over, should the first have died (longer than a delivery's 15 s, else a slow receiver gets an event twice).",
                default: "60"),
            .value(
                "webhook-inbox", "URL",
                "A webhook-inbox to send the webhooks of merchants without an endpoint to (URL/hooks/REGION/MERCHANT), as 'sandbox up' does."),
            .value(
                "wallet-url", "URL",
                "The wallet simulator (wallet-sim) that makes QR wallet orders, as 'sandbox up' passes it; without it QR payments answer apm_provider_unavailable."),
            .value(
                "seed", "FILE",
                "A seed file, or the name of one in sandbox-data/seeds/, whose part for this region is applied once the host listens, on a fresh database only; its other parts are for other services (sandbox up --seed applies them all)."),
        ] + Listening.options(defaultPort: nil, accessLogDefault: "-") + Resources.options,
        files: Resources.filesHelp,
        examples: [
            "sandbox-host --env EU", "sandbox-host --env MBANK --flavour prod --port 9000 --host 0.0.0.0",
            "sandbox-host --env EU --webhook-inbox http://127.0.0.1:8111",
            "sandbox-host --env EU --wallet-url http://127.0.0.1:8110",
            "sandbox-host --env MONEI --webhook-inbox http://127.0.0.1:8111",
            "sandbox-host --env EU --data-dir /tmp/eu-seeded --seed logged-in-eu",
        ])

    public static func run(_ options: ParsedArguments) throws {
        let resources = try Resources.locate(options)
        let regions = resources.catalogue.regions.map(\.id)
        guard let regionID = try options.choice("env", from: regions) else {
            throw UsageError("--env is required: one of \(regions.joined(separator: ", "))")
        }
        let region = resources.catalogue.region(regionID)!
        let flavour = Flavour(rawValue: try options.choice("flavour", from: Flavour.allCases.map(\.rawValue)) ?? "sandbox")!
        let port = try options.port("port") ?? UInt16(basePort + resources.catalogue.ports.offset(of: regionID)!)
        let inbox = options.string("webhook-inbox")
        if let inbox {
            guard let url = URL(string: inbox), ["http", "https"].contains(url.scheme ?? ""), url.host?.isEmpty == false,
                url.query == nil
            else { throw UsageError("--webhook-inbox must be an http:// or https:// URL such as http://127.0.0.1:8111, not '\(inbox)'") }
        }
        let wallet = options.string("wallet-url")
        if let wallet {
            guard let url = URL(string: wallet), ["http", "https"].contains(url.scheme ?? ""), url.host?.isEmpty == false,
                url.query == nil
            else { throw UsageError("--wallet-url must be an http:// or https:// URL such as http://127.0.0.1:8110, not '\(wallet)'") }
        }
        let walletSecret: String
        do { walletSecret = try resources.walletSecret(region) } catch { throw UsageError("\(error)") }
        let clock = SandboxClock()
        var configuration = EnvironmentHost.Configuration(
            region: region, flavour: flavour, fixtures: resources.fixtures(region), payments: resources.paymentData(region), server: try Listening.server(options, port: port),
            dataDirectory: URL(fileURLWithPath: options.string("data-dir") ?? ".sandbox"),
            openAPIFile: resources.openAPIFile(region),
            accessLog: try Listening.accessLog(options, clock: clock), clock: clock, walletURL: wallet, walletSecret: walletSecret)
        do { configuration.moneiStores = try resources.moneiStores(region) } catch { throw UsageError("\(error)") }
        if let inbox {
            configuration.webhookURL = { merchant in WebhookInbox.hookURL(base: inbox, region: region.id, merchant: merchant) }
        }
        let seed = try options.string("seed").map { try SeedCommand.read($0, sandboxData: resources.sandboxData) }
        if let seed, !seed.parts.contains(where: { $0.region == region.id }) {
            throw UsageError("--seed \(seed.file) has no part for \(region.id) (it has \(seed.parts.map(\.region).joined(separator: ", ")))")
        }
        configuration.database = try Database.url(options)
        configuration.webhookLease = .seconds(try options.integer("webhook-lease", in: 1...3600) ?? 60)
        if options.flag("dry-run") {
            var resolved: [String: any Sendable] = [
                "service": "sandbox-host", "region": region.id, "flavour": flavour.rawValue,
                "host": configuration.server.host, "port": Int(port),
                "database": configuration.database.map(Database.withoutPassword) ?? configuration.databaseFile.path,
            ]
            if let inbox { resolved["webhookInbox"] = inbox }
            if let wallet { resolved["walletURL"] = wallet }
            printJSON(resolved)
            return
        }
        let fresh = try configuration.database.map { try !Database.hasSchema(region.id.lowercased(), at: $0) }
            ?? !FileManager.default.fileExists(atPath: configuration.databaseFile.path)
        let locks = try DataDirectoryLocks.acquire(
            // On PostgreSQL, replicas share the database by design: no file of it to lock.
            configuration.dataDirectory, databases: configuration.database == nil ? [configuration.databaseFile] : [], sandbox: false,
            command: "sandbox-host --env \(region.id)", ports: [Int(port)])
        defer { locks.release() }
        try serveUntilSignalled(
            { try EnvironmentHost.start(configuration: configuration) }, locks: locks,
            afterStart: { host in
                guard let seed else { return [] }
                guard fresh else {
                    let holder = configuration.database.map { "\(Database.withoutPassword($0)) (schema \(region.id.lowercased()))" }
                        ?? configuration.databaseFile.path
                    return ["\(holder) already holds state: the seed \(seed.file) was not applied again."]
                }
                // This region's part only: the others are for other services.
                let part = SeedCommand.Plan(
                    parts: seed.parts.filter { $0.region == region.id }, seed: SandboxSeed(regions: seed.seed.regions.filter { $0.key == region.id }),
                    file: seed.file)
                let endpoints = EndpointsFile(
                    portal: nil, wallet: nil, webhooks: nil, environments: [region.id: host.url], controlKey: configuration.server.controlKey)
                var lines = try SeedCommand.apply(part, to: RunningSandbox(endpoints), dataDirectory: configuration.dataDirectory)
                let others = seed.parts.map(\.region).filter { $0 != region.id } + (seed.wallet == nil ? [] : ["wallet"])
                if !others.isEmpty { lines.append("(the seed's parts for \(others.joined(separator: ", ")) are for other services: not applied here)") }
                return lines
            }
        ) {
            "sandbox-host \(region.id) (\(flavour.rawValue)) listening on \($0)"
        }
    }
}
