import CommandLineSupport
import Foundation

/// One `tapsim` command: its options (``Opt`` keys, declared once with their types), its help,
/// generated from them, and what it does.
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
    let positional: (key: OptionKey<String>, placeholder: String)?
    let action: Action

    init(
        _ name: String, _ summary: String, positional: (key: OptionKey<String>, placeholder: String)? = nil,
        options: [any OptionDeclaring] = [], examples: [String] = [], run: @escaping Body
    ) {
        self.init(name, summary, positional: positional, options: options, examples: examples, action: .tapOnMobile(run))
    }

    /// A command of another vendor's SDK (`tapsim monei …`), on its region.
    init(
        _ name: String, _ summary: String, region: String, options: [any OptionDeclaring] = [], examples: [String] = [],
        run: @escaping VendorBody
    ) {
        self.init(name, summary, positional: nil, options: options, examples: examples, action: .vendor(region: region, run))
    }

    private init(
        _ name: String, _ summary: String, positional: (key: OptionKey<String>, placeholder: String)?, options: [any OptionDeclaring],
        examples: [String], action: Action
    ) {
        self.name = name
        self.summary = summary
        self.positional = positional
        description = CommandDescription(
            name: "tapsim \(name)", summary: summary, options: options.map(\.option), examples: examples,
            operand: positional?.placeholder,
            epilogue: [
                "Global options (" + Tapsim.globalOptions.map { "--\($0.name)" }.joined(separator: ", ")
                    + ") may come before or after the command; see 'tapsim --help'."
            ])
        self.action = action
    }

    /// `--help`: the command's options, and where the global ones are.
    var help: String { description.help }
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
