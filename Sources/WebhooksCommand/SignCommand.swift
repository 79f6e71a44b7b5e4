import CommandLineSupport
import Foundation
import WebhookSignature

/// `webhooks sign --scheme monei|standard --secret S [--timestamp T] [--id ID] < body`:
/// prints the signature header lines for the body on standard input.
enum SignCommand {
    static let description = CommandDescription(
        name: "webhooks sign",
        summary: "Signs the body on standard input and prints the header lines ('Name: value') to send with it.",
        options: [
            CommonOptions.scheme,
            CommonOptions.secret,
            .value("timestamp", "UNIX", "The signing time in Unix seconds (default: now)."),
            .value("id", "ID", "The message id (standard only; default: a fresh msg_…)."),
        ],
        examples: [
            "printf '{\"type\":\"payment.succeeded\"}' > event.json && webhooks sign --secret pk_test_123 < event.json",
            "webhooks sign --scheme standard --secret whsec_c2VjcmV0 --id msg_1 --timestamp 1700000000 < event.json > headers.txt",
        ])

    static let command = Webhooks.Command(description: description) { arguments in
        CommandMain.run(description, arguments: arguments) { options in
            let scheme = try options.scheme()
            let secret = try options.secret()
            let timestamp = try options.unixTime("timestamp") ?? WebhookVerifier.systemClock()
            let id = options.string("id") ?? (scheme == .standard ? WebhookSigner.newMessageID() : "")
            if scheme == .monei, options.string("id") != nil {
                throw UsageError("--id is for --scheme standard only (a MONEI signature does not cover an id)")
            }
            let body = readStandardInput()
            let headers: [(name: String, value: String)]
            do throws(WebhookSignatureError) {
                headers = try WebhookSigner.headers(scheme: scheme, id: id, timestamp: timestamp, body: body, secret: secret)
            } catch {
                throw UsageError("--secret: \(error.message)")
            }
            print(headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n"))
        }
    }
}
