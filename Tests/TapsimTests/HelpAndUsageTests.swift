import Foundation
import SandboxTestSupport
import TapsimCLI
import Testing

@Suite("tapsim: help and usage errors", .blocksThreads)
struct HelpAndUsageTests {
    /// Every command, as tapsim declares them.
    static let commands = Tapsim.commandNames

    @Test("every command is documented: docs/ names each, as `tapsim <command>` or in a table's `<command>`")
    func everyCommandIsDocumented() throws {
        let docs = try FileManager.default.contentsOfDirectory(at: Paths.repository.appendingPathComponent("docs"), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
        #expect(Self.commands.count >= 47, "\(Self.commands)")
        for command in Self.commands {
            // `tapsim [global options] <command>`, or the command in a table's code span.
            let shown = docs.range(of: #"tapsim( --[a-z-]+( [^ -][^ ]*)?)* "# + command + #"\b"#, options: .regularExpression) != nil
            #expect(shown || docs.contains("`\(command)`") || docs.contains("`\(command) "), "no doc names '\(command)'")
        }
    }

    let folder = TemporaryDirectory()

    func tapsim(_ arguments: String...) throws -> ProcessOutput {
        try run(try tapsimExecutable(), arguments, in: folder.url)
    }

    @Test("--help lists every command of docs/sdk.md, the global options and the exit codes")
    func toolHelp() throws {
        let help = try tapsim("--help")
        #expect(help.status == 0, "\(help)")
        #expect(help.stdout.hasPrefix("USAGE: tapsim [options] COMMAND"))
        for command in Self.commands {
            #expect(help.stdout.contains("\n  \(command) "), "help does not list \(command)")
        }
        for option in ["--env", "--flavour", "--device", "--endpoints", "--json"] {
            #expect(help.stdout.contains(option), "help does not name \(option)")
        }
        #expect(help.stdout.contains("13 session"))
        #expect(try tapsim("help").stdout == help.stdout)
    }

    @Test("every command has --help", arguments: commands)
    func commandHelp(command: String) throws {
        let result = try run(try tapsimExecutable(), command.split(separator: " ").map(String.init) + ["--help"], in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("USAGE: tapsim \(command) [options]"), "\(result)")
        #expect(result.stderr.isEmpty)
    }

    @Test("register --help lists its six commands")
    func groupHelp() throws {
        let result = try tapsim("register", "--help")
        #expect(result.status == 0)
        for sub in ["begin", "confirm", "end", "issue", "token", "quick"] { #expect(result.stdout.contains("register \(sub)")) }
    }

    @Test(
        "usage errors exit 2 with CommandMain's message",
        arguments: [
            ([], "tapsim: a command is required\nRun 'tapsim --help' for usage."),
            (["frobnicate"], "tapsim: unknown command 'frobnicate'\nRun 'tapsim --help' for usage."),
            (["register", "sideways"], "tapsim: unknown command 'register sideways'\nRun 'tapsim --help' for usage."),
            (["register"], "tapsim: 'register' needs one of: begin, confirm, end, issue, revoke, token, quick\nRun 'tapsim --help' for usage."),
            (["qr"], "tapsim: 'qr' needs one of: pay, cancel, refund\nRun 'tapsim --help' for usage."),
            (["--bogus", "status"], "tapsim: unknown option '--bogus'\nRun 'tapsim --help' for usage."),
            (["pay", "--bogus"], "tapsim pay: unknown option '--bogus'\nRun 'tapsim pay --help' for usage."),
            (["pay", "--amount"], "tapsim pay: --amount needs a value (N)\nRun 'tapsim pay --help' for usage."),
            (["pay", "1250"], "tapsim pay: unexpected argument '1250'\nRun 'tapsim pay --help' for usage."),
            (["status", "--flavour", "nightly"],
             "tapsim status: --flavour must be one of uat, sandbox, pre, prod, not 'nightly'\nRun 'tapsim status --help' for usage."),
            (["status", "--endpoints", "/nonexistent/endpoints.json"],
             "tapsim status: cannot read /nonexistent/endpoints.json: is the sandbox that writes it running ('sandbox up --data-dir …')?\nRun 'tapsim status --help' for usage."),
        ] as [([String], String)])
    func usageError(arguments: [String], message: String) throws {
        let result = try run(try tapsimExecutable(), arguments, in: folder.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasSuffix(message + "\n"), "\(result)")
    }

    @Test("a missing or bad value is a usage error before anything is sent, with --json too")
    func valueErrors() throws {
        // An endpoints file naming a host nobody listens on: a usage error must come before any request.
        let endpoints = folder.file("endpoints.json")
        try Data(#"{"environments":{"EU":"http://127.0.0.1:9"},"portal":"","wallet":""}"#.utf8).write(to: endpoints)
        let cases: [([String], String)] = [
            (["pay"], "--amount N is required"),
            (["pay", "--amount", "0"], "--amount must be a whole number from 1"),
            (["pay", "--amount", "12.50"], "--amount must be a whole number"),
            (["pay", "--amount", "100", "--card", "no-such-card"], "--card must be one of visa, mc"),
            (["dcc", "--transaction", "t1"], "give exactly one of --accept and --decline"),
            (["receipt", "--transaction", "t1"], "give exactly one of --qr and --email ADDRESS"),
            (["stats", "--type", "weekly"], "--type must be one of daily, brand"),
            (["validate"], "--type PAYMENT|REFUND|REVERSAL is required"),
            (["history", "--status", "PAID"], "--status takes"),
            (["history", "--from", "2026-12-02", "--to", "2026-12-01"], "--from must not be after --to"),
            (["login", "--pin", "12ab"], "--pin must be 4 to 8 digits, not '12ab'"),
            (["register", "token", "--token", "rt_eu_x", "--pin", "123"], "--pin must be 4 to 8 digits"),
            (["--field", "transaction..id", "last"], "--field takes a dotted path"),
            (["dcc", "--accept"], "--transaction ID is required: no sale of this device waits for a DCC choice"),
            (["dcc", "--transaction", "", "--accept"], "--transaction needs a value (ID), not an empty one"),
            (["dcc", "--transaction=", "--accept"], "--transaction needs a value (ID), not an empty one"),
            (["register", "confirm"], "--challenge CODE is required"),
            (["--env", "MARS", "status"], "--env must be one of"),
            (["qr", "pay"], "--amount N is required"),
            (["qr", "pay", "--amount", "100", "--approve", "--expire"], "give at most one of --approve, --decline and --expire"),
            (["qr", "pay", "--amount", "100", "--decline", "broke"], "--decline takes insufficient_funds, limit_exceeded"),
            (["qr", "pay", "--amount", "100", "--approve", "--no-wait"], "--no-wait ends before the customer acts"),
            (["qr", "pay", "--amount", "100", "--approve"], "names no wallet: start 'sandbox up'"),
            (["qr", "cancel"], "--transaction ID is required"),
            (["qr", "cancel", "t1", "t2"], "unexpected argument 't2': give one TRANSACTION_ID"),
            (["qr", "refund", "t1"], "--amount N is required"),
        ]
        for (arguments, message) in cases {
            let result = try run(
                try tapsimExecutable(), ["--endpoints", endpoints.path, "--sandbox-data", Paths.sandboxData.path] + arguments,
                in: folder.url)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains(message), "\(arguments): \(result)")
        }
        let json = try run(try tapsimExecutable(), ["--endpoints", endpoints.path, "--json", "pay"], in: folder.url)
        #expect(json.status == 2)
        let object = try #require(json.json, "\(json)")
        #expect(object["command"] as? String == "pay")
        #expect(object[path: "error", "category"] as? String == "usage")
        #expect(object[path: "error", "exitCode"] as? Int == 2)
    }

    @Test("without endpoints.json tapsim says how to get one")
    func noEndpoints() throws {
        let result = try tapsim("status")
        #expect(result.status == 2)
        #expect(result.stderr.contains("the sandbox is not running here (no .sandbox/endpoints.json): start 'sandbox up' or pass --endpoints FILE"))
    }
}
