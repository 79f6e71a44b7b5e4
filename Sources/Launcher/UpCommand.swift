import CommandLineSupport
import EnvironmentHost
import Foundation
import SandboxCore
import SandboxHTTP
import WalletSimulator

/// `sandbox up [--base-port 8100] [--data-dir .sandbox] [--host 127.0.0.1]` and the `sandbox` front door.
public enum SandboxCommand {
    public static let up = CommandDescription(
        name: "sandbox up",
        summary: "Runs every environment host, the portal, the wallet and the webhook inbox in one process on consecutive ports.",
        options: [
            .value(
                "base-port", "N",
                "First port: Worldline region i listens on N+i, then the portal, the wallet and the webhook inbox (8109, 8110, 8111 by default), then the other vendors' regions (MONEI 8112, PAGBANK 8113, GEOPAGOS 8114).",
                default: "8100"),
            .value("data-dir", "DIR", "Folder for the databases, the access log and endpoints.json.", default: ".sandbox"),
            .value(
                "database", "URL",
                "A PostgreSQL database (postgres://user:password@db:5432/sandbox) for every host (a schema per region) and the wallet (schema 'wallet') instead of SQLite files in --data-dir (docs/team.md). Default: $SANDBOX_DATABASE."),
            .value("flavour", "FLAVOUR", "uat, sandbox, pre or prod, for every host.", default: "sandbox"),
            .value(
                "wallet-public-url", "URL",
                "Base of the wallet's pay-page URLs in the QR codes (default: the wallet's URL; with --host 0.0.0.0, at this machine's network address)."),
            .value(
                "seed", "FILE",
                "A seed file, or the name of one in sandbox-data/seeds/, applied once the services listen, on a fresh data directory only: devices registered and logged in, payments, webhook endpoints (see 'sandbox seed --help')."),
            .value(
                "import", "DIR",
                "Start with the state a --export-on-exit wrote to DIR (every host, the wallet, the inbox), on a fresh data directory only."),
            .value("export-on-exit", "DIR", "On a clean stop (Ctrl-C, SIGTERM), save the state of every service to DIR, which --import reads."),
            .value(
                "regions", "LIST",
                "Run only these regions' hosts (comma-separated: EU,MBANK), each on its usual port; the portal, the wallet and the webhook inbox always run. Default: every region."),
        ] + Listening.options(defaultPort: nil, accessLogDefault: "<data-dir>/access.log") + Resources.options,
        files: Resources.filesHelp,
        examples: [
            "sandbox up", "sandbox up --base-port 9100 --data-dir /tmp/sandbox --host 0.0.0.0", "sandbox up --regions EU,MBANK",
            "sandbox up --data-dir /tmp/seeded --seed logged-in-eu", "sandbox up --data-dir /tmp/ci --export-on-exit /tmp/ci-state",
        ])

    public static let usage = """
        USAGE: sandbox <command> [options]

        The whole TapSandbox in one process.

        COMMANDS:
          up        Run every environment host, the portal, the wallet and the webhook inbox (see 'sandbox up --help').
          snapshot  Save, restore, list or delete the state of a running sandbox (see 'sandbox snapshot --help').
          reset     Reset every region, the wallet and the webhook inbox of a running sandbox (see 'sandbox reset --help').
          seed      Apply a seed file to a running sandbox (see 'sandbox seed --help').

        OPTIONS:
          --help    Show this help and exit.
        """

    /// Dispatches `sandbox <command> …`.
    public static func main(_ arguments: [String]) -> Never {
        switch arguments.first {
        case "up":
            CommandMain.run(up, arguments: arguments.dropFirst(), runUp)
        case "snapshot":
            SnapshotCommand.main(arguments.dropFirst())
        case "reset":
            CommandMain.run(SnapshotCommand.reset, arguments: arguments.dropFirst(), SnapshotCommand.runReset)
        case "seed":
            SeedCommand.main(arguments.dropFirst())
        case nil, "--help", "help", "-h":
            print(usage)
            exit(arguments.isEmpty ? CommandMain.usageExitCode : 0)
        case let other?:
            CommandMain.fail("sandbox", UsageError("unknown command '\(other)'"))
        }
    }

    static func runUp(_ options: ParsedArguments) throws {
        let resources = try Resources.locate(options)
        let dataDirectory = URL(fileURLWithPath: options.string("data-dir") ?? ".sandbox")
        let flavour = Flavour(rawValue: try options.choice("flavour", from: Flavour.allCases.map(\.rawValue)) ?? "sandbox")!
        let basePort = try options.integer("base-port", in: 0...65535) ?? 8100
        let server = try Listening.server(options, port: 0)
        var configuration = Sandbox.Configuration(
            resources: resources, basePort: basePort, server: server, dataDirectory: dataDirectory, flavour: flavour,
            accessLog: nil, walletPublicURL: options.string("wallet-public-url"))
        configuration.database = try Database.url(options)
        if let list = options.string("regions") {
            let ids = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
            guard !ids.contains("") else { throw UsageError("--regions wants region ids separated by commas, such as EU,MBANK, not '\(list)'") }
            configuration.regions = ids
        }
        let regions: [Region]
        do {
            regions = try configuration.selectedRegions()
        } catch let error as Sandbox.UnknownRegion {
            throw UsageError("--regions: \(error)")
        }
        if let url = configuration.walletPublicURL {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host?.isEmpty == false,
                parsed.query == nil, parsed.path.isEmpty || parsed.path == "/"
            else { throw UsageError("--wallet-public-url must be an http:// or https:// base URL such as http://192.168.1.20:8110, not '\(url)'") }
        }
        guard basePort == 0 || basePort + configuration.portCount - 1 <= 65535 else {
            throw UsageError("--base-port \(basePort) leaves no room for \(configuration.portCount) consecutive ports")
        }
        // The seed is read and checked before anything starts; applied only to a fresh data directory.
        let seed = try options.string("seed").map { try SeedCommand.read($0, sandboxData: resources.sandboxData) }
        if let seed {
            let unknown = seed.parts.map(\.region).filter { region in !regions.contains { $0.id == region } }
            guard unknown.isEmpty else {
                throw UsageError("--seed \(seed.file): regions.\(unknown[0]): this sandbox runs no host of region \(unknown[0])")
            }
        }
        let importFolder = try options.string("import").map(StateFolder.checkImport)
        let exportFolder = options.string("export-on-exit").map { URL(fileURLWithPath: $0) }
        if importFolder != nil, seed != nil { throw UsageError("--import and --seed both set the state to start from: give one") }
        if options.flag("dry-run") {
            printJSON([
                "service": "sandbox up", "host": server.host, "basePort": basePort, "flavour": flavour.rawValue,
                "dataDirectory": dataDirectory.path, "regions": regions.map(\.id),
                "database": configuration.database.map(Database.withoutPassword) ?? "sqlite",
            ])
            return
        }
        let fresh =
            if let database = configuration.database {
                try !regions.contains { try Database.hasSchema($0.id.lowercased(), at: database) }
            } else {
                !regions.contains { FileManager.default.fileExists(atPath: EnvironmentHost.databaseFile(region: $0.id, in: dataDirectory).path) }
            }
        let logOption = options.string("access-log")
        let clock = SandboxClock()
        if logOption == "<data-dir>/access.log" {
            configuration.accessLog = try AccessLog(path: dataDirectory.appendingPathComponent("access.log").path, clock: clock)
        } else {
            configuration.accessLog = try Listening.accessLog(options, clock: clock)
        }
        // One sandbox per data directory: a second one, or a host of one of its regions, refuses.
        let locks = try DataDirectoryLocks.acquire(
            dataDirectory,
            databases: configuration.database != nil ? []
                : regions.map { EnvironmentHost.databaseFile(region: $0.id, in: dataDirectory) }
                    + [dataDirectory.appendingPathComponent(WalletSimulator.databaseFile)],
            sandbox: true, command: "sandbox up",
            ports: basePort == 0 ? [] : Array(basePort..<(basePort + configuration.portCount)))
        defer { locks.release() }
        CommandMain.blockTerminationSignals()
        let sandbox = try Sandbox.start(configuration: configuration)
        locks.update(ports: sandbox.services.map { Int($0.server.port) })
        // Seeded before endpoints.json names the sandbox: whoever waits for that file finds the seed applied.
        var seeded: [String] = []
        if let seed, fresh {
            do {
                seeded = try SeedCommand.apply(seed, to: RunningSandbox(sandbox.endpoints), dataDirectory: dataDirectory)
            } catch {
                sandbox.stop()
                throw error
            }
        } else if let seed {
            seeded = ["\(dataDirectory.path) already holds state: the seed \(seed.file) was not applied again ('sandbox reset' then 'sandbox seed \(seed.file)' starts over from it)."]
        }
        if let importFolder, fresh {
            do {
                seeded.append(try StateFolder.importState(from: importFolder, into: RunningSandbox(sandbox.endpoints), dataDirectory: dataDirectory))
            } catch {
                sandbox.stop()
                throw error
            }
        } else if let importFolder {
            seeded.append("\(dataDirectory.path) already holds state: \(importFolder.path) was not imported again.")
        }
        let file = try sandbox.writeEndpoints()
        CommandMain.say("""
            TapSandbox is up (\(flavour.rawValue) flavour, data in \(dataDirectory.path)):

            \(sandbox.table)

            Endpoints: \(file.path). Press Ctrl-C to stop.
            """)
        for line in seeded { CommandMain.say(line) }
        if let notice = Listening.controlNotice(server) { CommandMain.say(notice + "\n  (also controlKey in \(file.path))") }
        let signal = CommandMain.waitForTerminationSignal()
        CommandMain.say("Stopping on \(signal == SIGINT ? "SIGINT" : "SIGTERM")…")
        if let exportFolder {
            do {
                CommandMain.say(try StateFolder.exportState(to: exportFolder, from: RunningSandbox(sandbox.endpoints), dataDirectory: dataDirectory))
            } catch {
                FileHandle.standardError.write(Data("sandbox up: --export-on-exit \(exportFolder.path) failed: \(error)\n".utf8))
            }
        }
        sandbox.stop()
        // Clients now say "the sandbox is not running" instead of failing to connect.
        try? FileManager.default.removeItem(at: file)
    }
}
