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
    /// The options every command shares, before or after the command word.
    static let globalOptions: [Option] = globalKeys.map(\.option)

    /// The global options with their help.
    private static let globalKeys: [any OptionDeclaring] = [
        Opt.env.help("Region id of the host to talk to (EU, ANZ, PAYONE_DE, PAYONE_AT, PAYPHONE, CAWL, OPP, ING, MBANK; MONEI for 'tapsim monei'; default: EU, or MONEI for 'tapsim monei')."),
        Opt.flavour.help("uat, sandbox, pre or prod: picks the SDK environment (sandboxEU, …).", default: "sandbox"),
        Opt.device.help("The device's folder: registration, secret, terminal id and session persist there (default: devices/<env> beside endpoints.json, so .sandbox/devices/<env>)."),
        Opt.endpoints.help("The endpoints.json 'sandbox up' wrote (default: .sandbox/endpoints.json)."),
        Opt.sandboxData.help("Folder with merchants.json and cards.json (default: found like every executable finds it)."),
        Opt.json.help("Print exactly one JSON object per command on standard output."),
        Opt.field.help("Print only this field of the answer (transaction.transactionId, challengeCode …), for shell variables."),
        Opt.realTime.help("Wait as a phone does: prepare's checks, the customer's tap, QR and BLIK polls every apmPulling (5 s, 3 s); by default the reader's waits are skipped and QR and BLIK poll every 0.25 s."),
        Opt.dryRun.help("Resolve the options, region, endpoints and device folder, print them as JSON, and contact nothing."),
    ]

    /// The tool's help: the summary, every command, the global options, examples and what every command shares.
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
        ],
        commands: Commands.all.map { ($0.name, $0.summary) },
        epilogue: [
            "Run 'tapsim COMMAND --help' for a command's options; global options may also follow the command.",
            "Amounts: every --amount, and every amount of a --json answer, is whole minor units of the currency,",
            "whichever vendor's SDK runs beneath (1250 is 12.50 EUR, 4500 is 45.00 PLN, 10000 is 100.00 ARS,",
            "1000 is 10.00 BRL); a magic amount 42.XX is typed 42XX. Human lines show amounts as 12.50 EUR.",
            "Exit codes: 0 an answer (a declined payment is one, for every vendor), 2 usage, 10 initialization, 11 card reader,",
            "12 registration, 13 session, 14 transaction, 15 location, 16 network, 17 validation.",
            "The device folder holds device.json (the SDK's: registration, device secret, session token;",
            "mode 0600) and tapsim.json (when the session ends, whether the reader was prepared; mode 0600).",
        ])

    /// The tool's help.
    static var usage: String { description.help }

    /// Every command's name (`pay`, `register quick` …), in the order `tapsim --help` lists them.
    public static var commandNames: [String] { Commands.all.map(\.name) }

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

    /// Reads `arguments` in one pass: global options anywhere, the command (one or two words),
    /// its options and its bare argument; every value is read as its option's type here.
    ///
    /// - Returns: nil when help was printed.
    /// - Throws: `InvocationError` for a wrong call.
    static func parse(_ arguments: [String], in directory: URL) throws(InvocationError) -> Invocation? {
        var group: CommandGroup?
        var command: Command?
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var operand = false
        func refuse(_ message: String) -> InvocationError { InvocationError(message, commandName: command.map { "tapsim " + $0.name }) }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" {
                say(command?.help ?? group?.usage ?? Tapsim.usage)
                return nil
            }
            if argument.hasPrefix("--") {
                let name = String(argument.dropFirst(2).prefix { $0 != "=" })
                let inline = argument.firstIndex(of: "=").map { String(argument[argument.index(after: $0)...]) }
                // A command's own option wins over a global one of the same name.
                guard
                    let option = command?.description.options.first(where: { $0.name == name })
                        ?? Tapsim.globalOptions.first(where: { $0.name == name })
                else { throw refuse("unknown option '--\(name)'") }
                guard let placeholder = option.placeholder else {
                    guard inline == nil else { throw refuse("--\(name) takes no value") }
                    flags.insert(name)
                    continue
                }
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.count else { throw refuse("--\(name) needs a value (\(placeholder))") }
                    value = arguments[index]
                    index += 1
                }
                // An empty value (`--transaction ""`, an unset shell variable) names nothing: say so
                // here rather than send it and get an answer about something else.
                guard !value.isEmpty else { throw refuse("--\(name) needs a value (\(placeholder)), not an empty one") }
                values[name] = value
            } else if let command {
                guard let positional = command.positional, !operand else {
                    throw refuse("unexpected argument '\(argument)'" + (command.positional.map { ": give one \($0.placeholder)" } ?? ""))
                }
                operand = true
                values[positional.key.name] = argument
            } else if let chosen = group {
                guard let found = chosen.commands.first(where: { $0.name == "\(chosen.name) \(argument)" }) else {
                    throw refuse("unknown command '\(chosen.name) \(argument)'")
                }
                command = found
            } else if argument == "help" || argument == "-h" {
                say(Tapsim.usage)
                return nil
            } else if let found = Commands.groups[argument] {
                group = found
            } else if let found = Commands.all.first(where: { $0.name == argument }) {
                command = found
            } else {
                throw refuse("unknown command '\(argument)'")
            }
        }
        guard let command else {
            if let group {
                throw refuse("'\(group.name)' needs one of: \(group.commands.map { $0.name.components(separatedBy: " ").last! }.joined(separator: ", "))")
            }
            Output.writeError(Tapsim.usage)
            throw refuse("a command is required")
        }
        let options: ParsedArguments
        do {
            let declared = command.description.options + Tapsim.globalOptions.filter { global in
                !command.description.options.contains { $0.name == global.name }
            }
            for option in declared where values[option.name] == nil {
                if let defaultValue = option.defaultValue { values[option.name] = defaultValue }
            }
            options = try ParsedArguments(values: values, flags: flags, options: declared)
        } catch {
            throw refuse(error.description)
        }
        return Invocation(
            globals: GlobalOptions(
                directory: directory, region: options[Opt.env], flavour: options[Opt.flavour] ?? "sandbox", device: options[Opt.device],
                endpoints: options[Opt.endpoints], sandboxData: options[Opt.sandboxData], json: options[Opt.json],
                field: options[Opt.field], realTime: options[Opt.realTime], dryRun: options[Opt.dryRun]),
            command: command, options: options)
    }

    private static func say(_ text: String) {
        Output.write(text)
    }
}
