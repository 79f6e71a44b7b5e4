import CommandLineSupport
import Foundation

/// One `tapsim` command: its options and help, and what it does.
struct Command: Sendable {
    typealias Body = @Sendable (Context, ParsedArguments) async throws -> Report
    typealias VendorBody = @Sendable (VendorContext, ParsedArguments) async throws -> Report

    /// What the command drives: the TapOnMobile SDK, or another vendor's on that vendor's region
    /// (`tapsim monei …` on MONEI, `tapsim pagbank …` on PAGBANK).
    enum Action: Sendable {
        case tapOnMobile(Body)
        case vendor(region: String, VendorBody)
    }

    /// `pay`, or `register quick` for a command of a group.
    let name: String
    let summary: String
    let description: CommandDescription
    /// The option a bare argument stands for (`qr cancel TRANSACTION_ID` is `--transaction`), and
    /// its placeholder in the usage line; nil: the command takes options only.
    let positional: (option: String, placeholder: String)?
    let action: Action

    init(
        _ name: String, _ summary: String, positional: (option: String, placeholder: String)? = nil, options: [Option] = [],
        examples: [String] = [], run: @escaping Body
    ) {
        self.init(name, summary, positional: positional, options: options, examples: examples, action: .tapOnMobile(run))
    }

    /// A command of another vendor's SDK (`tapsim monei …`), on its region.
    init(
        _ name: String, _ summary: String, region: String, options: [Option] = [], examples: [String] = [], run: @escaping VendorBody
    ) {
        self.init(name, summary, positional: nil, options: options, examples: examples, action: .vendor(region: region, run))
    }

    private init(
        _ name: String, _ summary: String, positional: (option: String, placeholder: String)?, options: [Option], examples: [String],
        action: Action
    ) {
        self.name = name
        self.summary = summary
        self.positional = positional
        description = CommandDescription(name: "tapsim \(name)", summary: summary, options: options, examples: examples)
        self.action = action
    }

    /// The command's own arguments with its bare argument, if any, turned into its option.
    ///
    /// - Throws: `UsageError` for a second bare argument.
    func namingPositional(_ arguments: [String]) throws(UsageError) -> [String] {
        guard let positional else { return arguments }
        var result: [String] = []
        var found = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument.hasPrefix("--") {
                result.append(argument)
                let name = String(argument.dropFirst(2).prefix { $0 != "=" })
                if !argument.contains("="), description.options.contains(where: { $0.name == name && $0.placeholder != nil }),
                    index < arguments.count
                {
                    result.append(arguments[index])
                    index += 1
                }
            } else {
                guard !found else { throw UsageError("unexpected argument '\(argument)': give one \(positional.placeholder)") }
                found = true
                result += ["--\(positional.option)", argument]
            }
        }
        return result
    }

    /// `--help`: the command's options, and where the global ones are.
    var help: String {
        var text = description.help
        if let positional, text.hasPrefix("USAGE: tapsim \(name) [options]") {
            text = "USAGE: tapsim \(name) [options] \(positional.placeholder)" + text.dropFirst("USAGE: tapsim \(name) [options]".count)
        }
        return text + "\n\n"
            + "Global options (--env, --flavour, --device, --endpoints, --sandbox-data, --json, --field, --real-time,\n"
            + "--dry-run) may come before or after the command; see 'tapsim --help'."
    }
}

/// Commands that share a first word (`register begin|confirm|end|issue|token|quick`).
struct CommandGroup: Sendable {
    let name: String
    let summary: String
    let commands: [Command]

    var usage: String {
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        return (["USAGE: tapsim \(name) COMMAND [options]", "", summary, "", "COMMANDS:"]
            + commands.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.summary }
            + ["", "Run 'tapsim \(name) COMMAND --help' for its options."]).joined(separator: "\n")
    }
}

/// Every command, in the order `tapsim --help` lists them.
enum Commands {
    static let register = CommandGroup(
        name: "register", summary: "Registers this device on a terminal: portal challenge code, or registration token.",
        commands: [
            Registration.begin, Registration.confirm, Registration.end, Registration.issue, Registration.revoke, Registration.token, Registration.quick,
        ])

    static let qr = CommandGroup(
        name: "qr", summary: "QR wallet payments: the customer scans the QR with a wallet (the wallet simulator), pays, declines or lets it expire.",
        commands: [QRCommands.pay, QRCommands.cancel, QRCommands.refund])

    static let blik = CommandGroup(
        name: "blik", summary: "BLIK payments: a code from the bank app (the wallet simulator), the customer approves, declines or does not answer.",
        commands: [BlikCommands.code, BlikCommands.pay, BlikCommands.refund])

    static let monei = CommandGroup(
        name: "monei", summary: "MONEI Tap to Pay (MoneiTapToPay): a POS token as your backend gets it, prepare, and payments on the MONEI host.",
        commands: [Monei.token, Monei.prepare, Monei.pay])

    static let pagbank = CommandGroup(
        name: "pagbank", summary: "PagBank Tap On (TapOnPartner): activate with a partner app's key, sales in reais, cancels, logout.",
        commands: [PagBank.activate, PagBank.pay, PagBank.cancel, PagBank.status, PagBank.logout])

    static let geopagos = CommandGroup(
        name: "geopagos", summary: "Geopagos Payments SDK (Payments, TapToPayHardware): a reader token as your backend buys it, payments, refunds, cancels.",
        commands: [Geopagos.token, Geopagos.pay, Geopagos.refund, Geopagos.cancel])

    static let groups: [String: CommandGroup] = [
        "register": register, "qr": qr, "blik": blik, "monei": monei, "pagbank": pagbank, "geopagos": geopagos,
    ]

    static let device: [Command] = [
        Sessions.login, Sessions.logout, Sessions.prepare, CardPayments.pay, CardPayments.refund, CardPayments.reverse, CardPayments.dcc,
    ]

    static let reads: [Command] = [
        Reads.last, Reads.history, Reads.count, Reads.details, Reads.stats, Reads.receipt, Sessions.terminalInfo,
        Sessions.infoInit, CardPayments.readerTest, Reads.validate, Sessions.secretCode, Sessions.relink, Sessions.support,
        Sessions.unregister, Sessions.status, Demo.command,
    ]

    static let all: [Command] = {
        var commands = register.commands + device
        commands += qr.commands + blik.commands + reads
        commands += monei.commands + pagbank.commands + geopagos.commands
        return commands
    }()
}

extension ParsedArguments {
    /// A value the command cannot do without.
    func required(_ name: String, _ placeholder: String) throws(UsageError) -> String {
        guard let value = string(name), !value.isEmpty else { throw UsageError("--\(name) \(placeholder) is required") }
        return value
    }

    /// A secure code: 4 to 8 digits, checked before anything is sent.
    func pin(_ name: String) throws(UsageError) -> String? {
        guard let text = string(name) else { return nil }
        guard (4...8).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw UsageError("--\(name) must be 4 to 8 digits, not '\(text)'")
        }
        return text
    }

    /// An amount in minor units, 1 or more.
    func amount(_ name: String) throws(UsageError) -> Int? {
        try integer(name, in: 1...Int(Int32.max))
    }

    func requiredAmount(_ name: String) throws(UsageError) -> Int {
        guard let amount = try amount(name) else { throw UsageError("--\(name) N is required (minor units: 1250 is 12.50)") }
        return amount
    }

    /// A date or time (`2026-11-29` or ISO 8601). A date alone is a whole UTC day: its first
    /// instant, or with `endOfDay` its last (23:59:59.999), so `--from D --to D` is day D.
    func date(_ name: String, endOfDay: Bool = false) throws(UsageError) -> Date? {
        guard let text = string(name) else { return nil }
        guard let date = Format.parseDate(text) else {
            throw UsageError("--\(name) must be a date (2026-11-29) or an ISO 8601 time (2026-11-29T12:00:00Z), not '\(text)'")
        }
        guard endOfDay, Format.isDay(text) else { return date }
        return date.addingTimeInterval(86_400 - 0.001)
    }

    /// A comma-separated list of words from `choices` (upper-cased).
    func list(_ name: String, from choices: [String]) throws(UsageError) -> [String] {
        guard let text = string(name) else { return [] }
        let values = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }.filter { !$0.isEmpty }
        for value in values where !choices.contains(value) {
            throw UsageError("--\(name) takes \(choices.joined(separator: ", ")) (comma-separated), not '\(value)'")
        }
        return values
    }
}
