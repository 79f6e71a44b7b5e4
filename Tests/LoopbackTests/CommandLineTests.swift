import Foundation
import SandboxCore
import SandboxTestSupport
import Testing

/// A call of one executable: the program and its arguments.
struct Call: Sendable, CustomTestStringConvertible {
    var program: String
    var arguments: [String]
    /// The name the executable uses in its messages (`sandbox up` for the subcommand).
    var name: String

    init(_ program: String, _ arguments: [String] = [], name: String? = nil) {
        self.program = program
        self.arguments = arguments
        self.name = name ?? program
    }

    var testDescription: String { ([program] + arguments).joined(separator: " ") }

    /// `arguments` plus `extra`.
    func with(_ extra: [String]) -> Call { Call(program, arguments + extra, name: name) }

    /// The arguments with a scratch data folder and system-chosen ports put first, so that a call
    /// wrongly accepted starts harmlessly instead of on the default ports; later options win, and
    /// a trailing option still lacks its value.
    func harmlessArguments(dataDirectory: URL) -> [String] {
        switch program {
        case "sandbox-host": return ["--data-dir", dataDirectory.path, "--port", "0"] + arguments
        case "sandbox" where arguments.first == "up":
            return ["up", "--data-dir", dataDirectory.path, "--base-port", "0"] + arguments.dropFirst()
        case "portal-sim", "wallet-sim", "webhook-inbox": return ["--port", "0"] + arguments
        default: return arguments
        }
    }
}

/// The five service executables as a user starts them (`sandbox up` for `sandbox`).
let serviceCalls: [Call] = [
    Call("sandbox-host"), Call("portal-sim"), Call("wallet-sim"), Call("webhook-inbox"), Call("sandbox", ["up"], name: "sandbox up"),
]

/// A mistaken call and the message it must get.
struct MistakenCall: Sendable, CustomTestStringConvertible {
    var call: Call
    var message: String
    var testDescription: String { call.testDescription }
}

@Suite("command lines", .blocksThreads)
struct CommandLineTests {
    @Test("--help prints usage and exits 0", arguments: serviceCalls + [Call("sandbox")])
    func help(_ call: Call) throws {
        let finished = try run(builtExecutable(call.program), call.arguments + ["--help"])
        #expect(finished.exited && finished.status == 0, "\(finished)")
        #expect(finished.stdout.contains("USAGE:"), "\(finished)")
        #expect(finished.stderr.isEmpty, "\(finished)")
        if call.program != "sandbox" || !call.arguments.isEmpty {
            #expect(finished.stdout.contains("--dry-run") && finished.stdout.contains("--help"), "\(finished)")
        }
    }

    @Test("an unknown option exits 2 and points to --help", arguments: serviceCalls)
    func unknownOption(_ call: Call) throws {
        let scratch = TemporaryDirectory()
        let finished = try run(
            builtExecutable(call.program), call.with(["--nope"]).harmlessArguments(dataDirectory: scratch.url), seconds: 5)
        #expect(finished.exited && finished.status == 2, "\(finished)")
        #expect(
            finished.stderr == "\(call.name): unknown option '--nope'\nRun '\(call.name) --help' for usage.\n",
            "\(finished)")
        #expect(finished.stdout.isEmpty)
    }

    @Test("an unknown sandbox command exits 2")
    func unknownCommand() throws {
        let finished = try run(builtExecutable("sandbox"), ["down"])
        #expect(finished.exited && finished.status == 2, "\(finished)")
        #expect(finished.stderr.contains("sandbox: unknown command 'down'"), "\(finished)")
        #expect(finished.stderr.contains("Run 'sandbox --help' for usage."), "\(finished)")
    }

    static let mistakes: [MistakenCall] = {
        let regions = (try? loadCatalogue().regions.map(\.id).joined(separator: ", ")) ?? "?"
        return [
            MistakenCall(
                call: Call("sandbox-host", ["--env", "EU", "--port", "70000"]),
                message: "--port must be a port number from 0 to 65535, not '70000'"),
            MistakenCall(call: Call("sandbox-host", ["--env", "XX"]), message: "--env must be one of \(regions), not 'XX'"),
            MistakenCall(call: Call("sandbox-host"), message: "--env is required: one of \(regions)"),
            MistakenCall(call: Call("sandbox-host", ["--env"]), message: "--env needs a value (REGION)"),
            MistakenCall(
                call: Call("sandbox-host", ["--env", "EU", "--flavour", "staging"]),
                message: "--flavour must be one of uat, sandbox, pre, prod, not 'staging'"),
            MistakenCall(
                call: Call("sandbox-host", ["--env", "EU", "--host", "localhost"]),
                message: "--host must be an IPv4 address such as 127.0.0.1 or 0.0.0.0, not 'localhost'"),
            MistakenCall(call: Call("sandbox-host", ["EU"]), message: "unexpected argument 'EU'"),
            MistakenCall(
                call: Call("sandbox", ["up", "--base-port", "65530"], name: "sandbox up"),
                message: "--base-port 65530 leaves no room for 15 consecutive ports"),
            MistakenCall(
                call: Call("sandbox", ["up", "--base-port", "http"], name: "sandbox up"),
                message: "--base-port must be a whole number from 0 to 65535, not 'http'"),
            MistakenCall(
                call: Call("sandbox", ["up", "--regions", "EU,XX"], name: "sandbox up"),
                message: "--regions: no region 'XX' in environments.json (it has \(regions))"),
            MistakenCall(
                call: Call("sandbox", ["up", "--regions", "EU,,MBANK"], name: "sandbox up"),
                message: "--regions wants region ids separated by commas, such as EU,MBANK, not 'EU,,MBANK'"),
            MistakenCall(
                call: Call("portal-sim", ["--environments", "XX=http://localhost:8100"]),
                message: "unknown region 'XX'; known: \(regions)"),
            MistakenCall(
                call: Call("portal-sim", ["--environments", "EU=localhost:8100"]),
                message: "--environments: 'EU=localhost:8100' is not REGION=http://host:port"),
            MistakenCall(
                call: Call("wallet-sim", ["--max-body-bytes", "0"]),
                message: "--max-body-bytes must be a whole number from 1 to 67108864, not '0'"),
        ]
    }()

    @Test("a bad value exits 2 with a message naming the option", arguments: mistakes)
    func badValue(_ mistake: MistakenCall) throws {
        let scratch = TemporaryDirectory()
        let call = mistake.call
        let finished = try run(builtExecutable(call.program), call.harmlessArguments(dataDirectory: scratch.url), seconds: 5)
        #expect(finished.exited && finished.status == 2 && !finished.timedOut, "\(finished)")
        #expect(
            finished.stderr == "\(call.name): \(mistake.message)\nRun '\(call.name) --help' for usage.\n",
            "\(finished)")
    }

    @Test("a broken environments.json exits 2 naming the file, the field and the problem", arguments: serviceCalls)
    func brokenCatalogue(_ call: Call) throws {
        // A copy of sandbox-data whose first region has a currency that does not exist.
        let scratch = TemporaryDirectory()
        let data = scratch.file("sandbox-data")
        try FileManager.default.copyItem(at: Paths.sandboxData, to: data)
        let file = data.appendingPathComponent("environments.json")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var regions = try #require(document["regions"] as? [[String: Any]])
        regions[0]["currency"] = "EURO"
        document["regions"] = regions
        try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted]).write(to: file)

        var arguments = ["--sandbox-data", data.path]
        switch call.program {
        case "sandbox-host": arguments += ["--env", "EU", "--port", "0", "--data-dir", scratch.url.path]
        case "sandbox": arguments += ["--base-port", "0", "--data-dir", scratch.url.path]
        default: arguments += ["--port", "0"]
        }
        let finished = try run(builtExecutable(call.program), call.arguments + arguments, seconds: 8)
        #expect(finished.exited && finished.status == 2 && !finished.timedOut, "\(finished)")
        #expect(finished.stderr.hasPrefix("\(call.name): environments.json: regions[0].currency: "), "\(finished)")
        #expect(finished.stderr.contains("EURO"), "\(finished)")
    }

    @Test("sandbox-host on a port already in use exits non-zero with a clear message")
    func portInUse() throws {
        let blocked = try #require(HeldPort())
        let scratch = TemporaryDirectory()
        let finished = try run(
            builtExecutable("sandbox-host"), ["--env", "EU", "--port", String(blocked.port), "--data-dir", scratch.url.path],
            seconds: 8)
        #expect(!finished.timedOut, "it started although the port is taken: \(finished)")
        #expect(finished.exited, "it died of a signal instead of exiting: \(finished)")
        #expect(finished.status != 0)
        #expect(
            finished.stderr.contains("sandbox-host: cannot listen on 127.0.0.1:\(blocked.port)"), "\(finished)")
        #expect(!finished.stdout.contains("listening"), "\(finished)")
    }

    @Test("sandbox up --regions runs only the regions named (any case, any order), in catalogue order")
    func dryRunRegions() throws {
        let finished = try run(builtExecutable("sandbox"), ["up", "--regions", "mbank, EU", "--dry-run"])
        #expect(finished.exited && finished.status == 0, "\(finished)")
        let configuration = try #require(
            try JSONSerialization.jsonObject(with: Data(finished.stdout.utf8)) as? [String: Any], "\(finished)")
        #expect(configuration["regions"] as? [String] == ["EU", "MBANK"], "\(configuration)")
    }

    @Test("--dry-run resolves the documented defaults without listening", arguments: serviceCalls)
    func dryRunDefaults(_ call: Call) throws {
        let catalogue = try loadCatalogue()
        let arguments = call.program == "sandbox-host" ? ["--env", "ANZ"] : []
        let finished = try run(builtExecutable(call.program), call.arguments + arguments + ["--dry-run"])
        #expect(finished.exited && finished.status == 0, "\(finished)")
        let configuration = try #require(
            try JSONSerialization.jsonObject(with: Data(finished.stdout.utf8)) as? [String: Any], "\(finished)")
        #expect(configuration["host"] as? String == "127.0.0.1")
        switch call.program {
        case "sandbox-host":
            #expect(configuration["region"] as? String == "ANZ")
            #expect(configuration["port"] as? Int == 8101)
            #expect(configuration["flavour"] as? String == "sandbox")
            #expect((configuration["database"] as? String)?.hasSuffix(".sandbox/anz.sqlite") == true)
        case "portal-sim": #expect(configuration["port"] as? Int == 8100 + catalogue.ports.portal)
        case "wallet-sim": #expect(configuration["port"] as? Int == 8100 + catalogue.ports.wallet)
        case "webhook-inbox": #expect(configuration["port"] as? Int == 8100 + catalogue.ports.inbox)
        default:
            #expect(configuration["basePort"] as? Int == 8100)
            #expect(configuration["regions"] as? [String] == catalogue.regions.map(\.id))
        }
    }
}

/// The example lines of a `--help` text: the indented lines under `EXAMPLES:`, split into words.
func helpExamples(_ help: String) -> [[String]] {
    guard let start = help.range(of: "EXAMPLES:\n") else { return [] }
    var examples: [[String]] = []
    for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
        guard line.hasPrefix("  ") else { break }
        examples.append(line.split(separator: " ").map(String.init))
    }
    return examples
}

@Suite("help examples", .blocksThreads)
struct HelpExampleTests {
    /// Each service example is run with `--dry-run` added: the example's own ports (8100, 9000 …) and
    /// `0.0.0.0` would collide with a sandbox the developer has running. What the example says must
    /// resolve as written and show up in the resolved configuration.
    @Test("every example of a service's --help resolves as written", arguments: serviceCalls)
    func examplesResolve(_ call: Call) throws {
        let help = try run(builtExecutable(call.program), call.arguments + ["--help"])
        let examples = helpExamples(help.stdout)
        // Run where a `sandbox up` on the default ports has left its endpoints.json, as the examples assume.
        let catalogue = try loadCatalogue()
        let folder = TemporaryDirectory()
        try FileManager.default.createDirectory(at: folder.file(".sandbox"), withIntermediateDirectories: true)
        let ports = catalogue.ports
        let endpoints: [String: Any] = [
            "environments": Dictionary(
                uniqueKeysWithValues: catalogue.regions.map { ($0.id, "http://127.0.0.1:\(8100 + ports.offset(of: $0.id)!)") }),
            "portal": "http://127.0.0.1:\(8100 + ports.portal)", "wallet": "http://127.0.0.1:\(8100 + ports.wallet)",
            "webhooks": "http://127.0.0.1:\(8100 + ports.inbox)",
        ]
        try JSONSerialization.data(withJSONObject: endpoints).write(to: folder.file(".sandbox/endpoints.json"))
        #expect(!examples.isEmpty, "\(call.name) --help has no EXAMPLES:\n\(help)")
        for example in examples {
            #expect(Array(example.prefix(call.arguments.count + 1)) == [call.program] + call.arguments, "\(example)")
            let arguments = Array(example.dropFirst())
            let finished = try ChildProcess(builtExecutable(call.program), arguments + ["--dry-run"], workingDirectory: folder.url)
                .finish(within: 10)
            #expect(finished.exited && finished.status == 0, "\(example.joined(separator: " ")):\n\(finished)")
            let configuration = (try? JSONSerialization.jsonObject(with: Data(finished.stdout.utf8))) as? [String: Any] ?? [:]
            // Every option value of the example is what the service resolved.
            for (option, key) in [("--port", "port"), ("--base-port", "basePort"), ("--host", "host"), ("--env", "region"), ("--flavour", "flavour")] {
                guard let at = arguments.firstIndex(of: option), at + 1 < arguments.count else { continue }
                let resolved = configuration[key].map { "\($0)" }
                #expect(resolved == arguments[at + 1], "\(example.joined(separator: " ")): \(key) is \(resolved ?? "absent")")
            }
        }
    }
}

/// A standalone service stopped by Ctrl-C (SIGINT) or `docker stop` (SIGTERM).
struct StopCase: Sendable, CustomTestStringConvertible {
    var program: String
    var arguments: [String]
    var signal: Int32
    var testDescription: String { "\(program) on \(signal == SIGINT ? "SIGINT" : "SIGTERM")" }
}

@Suite("graceful stop", .blocksThreads)
struct GracefulStopTests {
    static let cases: [StopCase] = [
        StopCase(program: "sandbox-host", arguments: ["--env", "EU"], signal: SIGINT),
        StopCase(program: "sandbox-host", arguments: ["--env", "EU"], signal: SIGTERM),
        StopCase(program: "portal-sim", arguments: [], signal: SIGTERM),
        StopCase(program: "wallet-sim", arguments: [], signal: SIGTERM),
        StopCase(program: "webhook-inbox", arguments: [], signal: SIGTERM),
    ]

    @Test("a standalone service exits 0 on a termination signal and releases its port", arguments: cases)
    func stopsOnSignal(_ stop: StopCase) throws {
        let scratch = TemporaryDirectory()
        let dataDirectory = stop.program == "sandbox-host" ? ["--data-dir", scratch.url.path] : []
        var started: (ChildProcess, Int)?
        var lastFailure = ""
        for _ in 0..<3 where started == nil {
            let port = Int(freePort())
            let child = try ChildProcess(builtExecutable(stop.program), stop.arguments + ["--port", String(port)] + dataDirectory)
            if child.waitForOutput("listening on http://127.0.0.1:\(port)", seconds: 10) {
                started = (child, port)
            } else {
                lastFailure = child.finish(within: 5).description
            }
        }
        let (child, port) = try #require(started, "\(stop.program) did not say it was listening: \(lastFailure)")
        let health = try get("http://127.0.0.1:\(port)/healthz")
        #expect(health.status == 200, "\(health.body)")

        child.signal(stop.signal)
        let finished = child.finish(within: 8)
        #expect(!finished.timedOut, "still running 8 s after the signal: \(finished)")
        #expect(finished.exited && finished.status == 0, "\(finished)")
        #expect(!isAccepting(port))
    }
}
