import CommandLineSupport
import Foundation
import WebhookSignature

/// `webhooks sign|verify|listen|trigger …`: the merchant side of the sandbox's signed webhooks.
///
/// Exit codes: 0 done (for `verify`: the signature is valid), 1 refused or failed (for `verify`:
/// the reason is printed), 2 a usage error.
enum Webhooks {
    /// One subcommand: its options, and what it does with them.
    struct Command: Sendable {
        let description: CommandDescription
        let run: @Sendable ([String]) -> Never

        var name: String { String(description.name.dropFirst("webhooks ".count)) }
    }

    static let commands: [Command] = [SignCommand.command, VerifyCommand.command, ListenCommand.command, TriggerCommand.command]

    static var usage: String {
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        return ([
            "USAGE: webhooks COMMAND [options]",
            "",
            "Signs, verifies, receives and triggers the sandbox's signed webhooks (MONEI-Signature or Standard Webhooks).",
            "",
            "COMMANDS:",
        ] + commands.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.description.summary }
            + [
                "",
                "Run 'webhooks COMMAND --help' for its options.",
                "Exit codes: 0 done (verify: the signature is valid), 1 refused or failed (the reason on standard error), 2 usage.",
            ]).joined(separator: "\n")
    }

    static func main(_ arguments: [String]) -> Never {
        guard let first = arguments.first else {
            CommandMain.fail("webhooks", UsageError("a command is required (\(commands.map(\.name).joined(separator: ", ")))"))
        }
        if first == "--help" || first == "-h" || first == "help" {
            print(usage)
            exit(0)
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            if first.hasPrefix("-") { CommandMain.fail("webhooks", UsageError("unknown option '\(first)'")) }
            CommandMain.fail("webhooks", UsageError("unknown command '\(first)'"))
        }
        command.run(Array(arguments.dropFirst()))
    }
}

extension ParsedArguments {
    /// A value the command cannot do without.
    func required(_ name: String, _ placeholder: String) throws(UsageError) -> String {
        guard let value = string(name), !value.isEmpty else { throw UsageError("--\(name) \(placeholder) is required") }
        return value
    }

    /// `--scheme monei|standard` (default monei).
    func scheme() throws(UsageError) -> WebhookScheme {
        let name = try choice("scheme", from: WebhookScheme.allCases.map(\.rawValue)) ?? WebhookScheme.monei.rawValue
        return WebhookScheme(rawValue: name)!
    }

    /// `--secret S`, or `$WEBHOOKS_SECRET` so the secret stays out of the process list.
    func secret() throws(UsageError) -> String {
        if let value = string("secret"), !value.isEmpty { return value }
        if let value = ProcessInfo.processInfo.environment["WEBHOOKS_SECRET"], !value.isEmpty { return value }
        throw UsageError("--secret SECRET is required (or set WEBHOOKS_SECRET)")
    }

    /// A Unix time in seconds.
    func unixTime(_ name: String) throws(UsageError) -> Int? {
        try integer(name, in: 0...999_999_999_999)
    }
}

/// Shared option texts, so that every command words them alike.
enum CommonOptions {
    static let scheme = Option.value(
        "scheme", "SCHEME", "monei (MONEI-Signature: t=…,v1=<hex>) or standard (webhook-id/-timestamp/-signature).",
        default: "monei")
    static let secret = Option.value(
        "secret", "SECRET", "MONEI: the merchant's API key. standard: whsec_ + base64. Default: $WEBHOOKS_SECRET.")
    static let tolerance = Option.value(
        "tolerance", "SECONDS", "How far the signed timestamp may be from now, either way.",
        default: String(WebhookVerifier.defaultTolerance))
}

/// Prints one JSON object with sorted keys (what `--dry-run` resolved), for scripts and people.
func printJSONObject(_ object: [String: Any]) {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
    print(String(decoding: data, as: UTF8.self))
}

/// Reads all of standard input: the body, byte for byte.
func readStandardInput() -> [UInt8] {
    [UInt8](FileHandle.standardInput.readDataToEndOfFile())
}
