import CommandLineSupport
import Foundation

/// `tapsim [--env EU] [--flavour sandbox] [--device DIR] [--endpoints FILE] [--json] COMMAND …`:
/// a device on the command line, driving the client SDK over the simulated reader.
///
/// Global options may come before or after the command. Amounts are minor units everywhere. Every command answers with human lines,
/// or with exactly one JSON object on standard output under `--json`. Exit codes: 0 for an answer
/// (a declined payment is an answer, whichever vendor's SDK ran), 2 for a usage error, and the SDK error category's code
/// otherwise (docs/sdk.md).
public enum Tapsim {
    static let globalOptions: [Option] = [
        .value("env", "REGION", "Region id of the host to talk to (EU, ANZ, PAYONE_DE, PAYONE_AT, PAYPHONE, CAWL, OPP, ING, MBANK; MONEI for 'tapsim monei'; default: EU, or MONEI for 'tapsim monei')."),
        .value("flavour", "FLAVOUR", "uat, sandbox, pre or prod: picks the SDK environment (sandboxEU, …).", default: "sandbox"),
        .value("device", "DIR", "The device's folder: registration, secret, terminal id and session persist there (default: devices/<env> beside endpoints.json, so .sandbox/devices/<env>)."),
        .value("endpoints", "FILE", "The endpoints.json 'sandbox up' wrote (default: .sandbox/endpoints.json)."),
        .value("sandbox-data", "DIR", "Folder with merchants.json and cards.json (default: found like every executable finds it)."),
        .flag("json", "Print exactly one JSON object per command on standard output."),
        .value("field", "PATH", "Print only this field of the answer (transaction.transactionId, challengeCode …), for shell variables."),
        .flag("real-time", "Wait as a phone does: prepare's checks, the customer's tap, QR and BLIK polls every apmPulling (5 s, 3 s); by default the reader's waits are skipped and QR and BLIK poll every 0.25 s."),
        .flag("dry-run", "Resolve the options, region, endpoints and device folder, print them as JSON, and contact nothing."),
    ]

    static let description = CommandDescription(
        name: "tapsim",
        summary: "A Tap to Pay device on the command line: the TapOnMobileSandbox SDK over the simulated card reader, against a running 'sandbox up'.",
        options: globalOptions,
        files: ResourceLocator.helpText,
        examples: [
            "tapsim register quick --pin 2468",
            "tapsim login --pin 2468 && tapsim prepare && tapsim pay --amount 1250 --currency EUR",
            "tapsim --json history",
            #"tapsim reverse --transaction "$(tapsim --field transaction.transactionId pay --amount 1250)""#,
            "tapsim --env MBANK demo",
            "tapsim --dry-run --env ANZ status",
        ])

    /// The tool's help: the summary, every command, the global options and examples.
    static var usage: String {
        var lines = description.help.components(separatedBy: "\n")
        lines[0] = "USAGE: tapsim [options] COMMAND [command options]"
        let commands = Commands.all
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        var listing = ["COMMANDS:"]
        for command in commands {
            listing.append("  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary)
        }
        listing.append("")
        // Commands go between the summary and the options.
        let options = lines.firstIndex(of: "OPTIONS:") ?? lines.count
        lines.insert(contentsOf: listing, at: options)
        lines += [
            "",
            "Run 'tapsim COMMAND --help' for a command's options; global options may also follow the command.",
            "Amounts: every --amount, and every amount of a --json answer, is whole minor units of the currency,",
            "whichever vendor's SDK runs beneath (1250 is 12.50 EUR, 4500 is 45.00 PLN, 10000 is 100.00 ARS,",
            "1000 is 10.00 BRL); a magic amount 42.XX is typed 42XX. Human lines show amounts as 12.50 EUR.",
            "Exit codes: 0 an answer (a declined payment is one, for every vendor), 2 usage, 10 initialization, 11 card reader,",
            "12 registration, 13 session, 14 transaction, 15 location, 16 network, 17 validation.",
            "The device folder holds device.json (the SDK's: registration, device secret, session token;",
            "mode 0600) and tapsim.json (when the session ends, whether the reader was prepared; mode 0600).",
        ]
        return lines.joined(separator: "\n")
    }

    /// Parses, runs one command, prints its answer and answers the exit code.
    ///
    /// `main.swift` is this call; the tests make it too, in their own process:
    ///
    /// ```swift
    /// let code = await Tapsim.run(["--json", "status"], in: folder, streams: collected)
    /// ```
    ///
    /// - Parameters:
    ///   - directory: What relative paths and the default `.sandbox/` are read against (the
    ///     process's working directory by default).
    ///   - streams: Where the answer, progress and errors go.
    public static func run(_ arguments: [String], in directory: URL? = nil, streams: TapsimStreams = .standard) async -> Int32 {
        await Output.currentStreams.withValue(streams) {
            do throws(TapsimExit) {
                try await run(arguments, in: directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
                return 0
            } catch {
                return error.code
            }
        }
    }

    /// Runs `job` while no command of `region`'s SDK (`MONEI`, `PAGBANK`, `GEOPAGOS`) runs in this
    /// process, and starts none until it ends: those SDKs keep one state per app, as on a phone, so
    /// code that drives one of them directly in a process that also runs tapsim's commands (a test
    /// process) takes this same turn.
    public static func asTheOnlyApp<T>(of region: String, _ job: () async throws -> T) async rethrows -> T {
        try await VendorContext.turns(of: region).run(job)
    }

    private static func run(_ arguments: [String], in directory: URL) async throws(TapsimExit) {
        let wantsJSON = arguments.contains("--json")
        let invocation: Invocation
        do {
            guard let parsed = try Invocation.parse(arguments, in: directory) else { return }
            invocation = parsed
        } catch {
            throw Output.usageFailure(error.description, name: error.commandName ?? "tapsim", json: wantsJSON)
        }
        let output = Output(command: invocation.command.name, json: invocation.globals.json, field: invocation.globals.field)
        let report: Report
        do {
            switch invocation.command.action {
            case .tapOnMobile(let run):
                let context = try Context(globals: invocation.globals)
                if invocation.globals.dryRun {
                    Output.write(context.resolved(invocation.command, invocation.options).text)
                    return
                }
                report = try await run(context, invocation.options)
            case .vendor(let region, let run):
                let context = try VendorContext(globals: invocation.globals, region: region)
                if invocation.globals.dryRun {
                    Output.write(context.resolved(invocation.command, invocation.options, files: ["monei.json", "device.json", "tapon.json"]).text)
                    return
                }
                // The vendors' SDKs keep one state per app, as on a phone: one vendor command at a time in a process.
                report = try await VendorContext.turns(of: region).run { try await run(context, invocation.options) }
            }
        } catch let error as UsageError {
            throw Output.usageFailure(error.description, name: "tapsim " + invocation.command.name, json: invocation.globals.json)
        } catch let exit as TapsimExit {
            throw exit
        } catch {
            throw output.failure(Failure(any: error))
        }
        try output.success(report)
    }
}

/// A usage error that knows which command's help to point to.
struct InvocationError: Error, CustomStringConvertible {
    let description: String
    let commandName: String?

    init(_ description: String, commandName: String?) {
        self.description = description
        self.commandName = commandName
    }
}

/// The options every command shares, read from before and after the command word.
struct GlobalOptions: Sendable {
    /// What relative paths and the default `.sandbox/` are read against.
    var directory: URL
    /// `--env`; nil when not given (each kind of command has its default region).
    var region: String?
    var flavour: String
    var device: String?
    var endpoints: String?
    var sandboxData: String?
    var json: Bool
    /// `--field PATH`: print only this field of the answer.
    var field: String?
    var realTime: Bool
    var dryRun: Bool

    /// `--sandbox-data`, read against ``directory``; nil when not given (then it is found as every executable finds it).
    var sandboxDataPath: String? { sandboxData.map { url($0).path } }

    /// `path` (an option's value, or a default such as `.sandbox/endpoints.json`) read against ``directory``.
    func url(_ path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: directory).absoluteURL.standardizedFileURL
    }
}

/// One call of `tapsim`: its global options, the command and the command's own options.
struct Invocation {
    var globals: GlobalOptions
    var command: Command
    var options: ParsedArguments

    /// Splits `arguments` into global options, the command (one or two words) and its options.
    ///
    /// - Returns: nil when help was printed.
    /// - Throws: `InvocationError` for a wrong call.
    static func parse(_ arguments: [String], in directory: URL) throws(InvocationError) -> Invocation? {
        var globals: [String] = []
        var index = 0
        // Global options before the command word.
        while index < arguments.count, arguments[index].hasPrefix("--") {
            let argument = arguments[index]
            if argument == "--help" {
                say(Tapsim.usage)
                return nil
            }
            guard let option = globalOption(argument) else {
                throw InvocationError("unknown option '\(argument.prefix { $0 != "=" })'", commandName: nil)
            }
            globals.append(argument)
            index += 1
            if option.placeholder != nil, !argument.contains("=") {
                guard index < arguments.count else {
                    throw InvocationError("--\(option.name) needs a value (\(option.placeholder!))", commandName: nil)
                }
                globals.append(arguments[index])
                index += 1
            }
        }
        guard index < arguments.count else {
            Output.writeError(Tapsim.usage)
            throw InvocationError("a command is required", commandName: nil)
        }
        let word = arguments[index]
        index += 1
        if word == "help" || word == "-h" {
            say(Tapsim.usage)
            return nil
        }
        let command: Command
        if let group = Commands.groups[word] {
            guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                if index < arguments.count, arguments[index] == "--help" {
                    say(group.usage)
                    return nil
                }
                throw InvocationError(
                    "'\(word)' needs one of: \(group.commands.map { $0.name.components(separatedBy: " ").last! }.joined(separator: ", "))",
                    commandName: nil)
            }
            let sub = arguments[index]
            index += 1
            guard let found = group.commands.first(where: { $0.name == "\(word) \(sub)" }) else {
                throw InvocationError("unknown command '\(word) \(sub)'", commandName: nil)
            }
            command = found
        } else if let found = Commands.all.first(where: { $0.name == word }) {
            command = found
        } else {
            throw InvocationError("unknown command '\(word)'", commandName: nil)
        }

        // Global options after the command word are taken out; the rest belongs to the command.
        var own: [String] = []
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument.hasPrefix("--"), let option = globalOption(argument),
                !command.description.options.contains(where: { $0.name == option.name })
            {
                globals.append(argument)
                if option.placeholder != nil, !argument.contains("=") {
                    guard index < arguments.count else {
                        throw InvocationError(
                            "--\(option.name) needs a value (\(option.placeholder!))", commandName: "tapsim " + command.name)
                    }
                    globals.append(arguments[index])
                    index += 1
                }
            } else {
                own.append(argument)
            }
        }
        let options: ParsedArguments
        do {
            guard let parsed = try command.description.parse(try command.namingPositional(own)) else {
                say(command.help)
                return nil
            }
            options = parsed
        } catch {
            throw InvocationError(error.description, commandName: "tapsim " + command.name)
        }
        let global: ParsedArguments
        do {
            global = try Tapsim.description.parse(globals)!
        } catch {
            throw InvocationError(error.description, commandName: "tapsim " + command.name)
        }
        let flavour: String
        do {
            flavour = try global.choice("flavour", from: ["uat", "sandbox", "pre", "prod"]) ?? "sandbox"
        } catch {
            throw InvocationError(error.description, commandName: "tapsim " + command.name)
        }
        let field = global.string("field")
        if let field, field.isEmpty || field.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw InvocationError("--field takes a dotted path such as transaction.transactionId, not '\(field)'", commandName: "tapsim " + command.name)
        }
        return Invocation(
            globals: GlobalOptions(
                directory: directory, region: global.string("env"), flavour: flavour, device: global.string("device"),
                endpoints: global.string("endpoints"), sandboxData: global.string("sandbox-data"), json: global.flag("json"),
                field: field, realTime: global.flag("real-time"), dryRun: global.flag("dry-run")),
            command: command, options: options)
    }

    private static func globalOption(_ argument: String) -> Option? {
        let name = String(argument.dropFirst(2).prefix { $0 != "=" })
        return Tapsim.globalOptions.first { $0.name == name }
    }

    private static func say(_ text: String) {
        Output.write(text)
    }
}
