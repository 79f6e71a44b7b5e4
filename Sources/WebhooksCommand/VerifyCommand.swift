import CommandLineSupport
import Foundation
import WebhookSignature

/// `webhooks verify --scheme monei|standard --secret S --header 'Name: value' [--header …]
/// [--headers-file FILE] [--tolerance 300] [--now T] < body`: exit 0 when the signature is valid,
/// 1 with the reason when it is not.
enum VerifyCommand {
    static let description = CommandDescription(
        name: "webhooks verify",
        summary: "Verifies the body on standard input against its signature headers: exit 0 valid, 1 not (with the reason).",
        options: [
            CommonOptions.scheme,
            CommonOptions.secret,
            .value("header", "'NAME: VALUE'", "A received header; repeat for each (standard needs three)."),
            .value("headers-file", "FILE", "Received headers, one 'Name: value' per line (a curl -D dump works)."),
            CommonOptions.tolerance,
            .value("now", "UNIX", "Now, in Unix seconds (default: the system clock)."),
        ],
        examples: [
            "webhooks verify --secret pk_test_123 --header \"$(webhooks sign --secret pk_test_123 < event.json)\" < event.json",
            "webhooks verify --scheme standard --secret whsec_c2VjcmV0 --headers-file headers.txt --now 1700000100 < event.json",
        ])

    static let command = Webhooks.Command(description: description) { arguments in
        let split = headerArguments(arguments)
        CommandMain.run(description, arguments: split.remaining) { options in try verify(options, split) }
    }

    /// The `--header` values taken out of the arguments (the parser keeps only one value per option).
    /// A separate function rather than a do/catch inside the closure: the release compiler of
    /// Swift 6.3.1 crashes on that shape ("Found ownership error").
    private static func headerArguments(_ arguments: [String]) -> HeaderArguments {
        do throws(UsageError) {
            return try HeaderArguments(arguments, description: description)
        } catch {
            CommandMain.fail(description.name, error)
        }
    }

    private static func verify(_ options: ParsedArguments, _ split: HeaderArguments) throws {
        var headers = split
        if let file = options.string("headers-file") { try headers.addFile(file) }
        let scheme = try options.scheme()
        let secret = try options.secret()
        guard !headers.headers.isEmpty else {
            throw UsageError("give the received headers with --header 'Name: value' or --headers-file FILE")
        }
        let tolerance = try options.integer("tolerance", in: 0...Int(Int32.max)) ?? WebhookVerifier.defaultTolerance
        let now = try options.unixTime("now") ?? WebhookVerifier.systemClock()
        let body = readStandardInput()
        let verifier: WebhookVerifier
        do throws(WebhookVerificationError) {
            verifier = try WebhookVerifier(scheme: scheme, secret: secret, tolerance: tolerance, clock: { now })
        } catch {
            throw UsageError("--secret: \(error.message)")
        }
        // A refusal propagates to CommandMain, which prints "webhooks verify: <reason>: <message>" and exits 1.
        let verified = try verifier.verify(headers: headers.headers, body: body)
        print("valid: \(Describe.verified(verified)), \(body.count) bytes")
    }
}
