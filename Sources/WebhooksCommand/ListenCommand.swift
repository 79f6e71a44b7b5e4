import CommandLineSupport
import Foundation
import SandboxHTTP
import WebhookSignature

/// `webhooks listen --port P --secret S [--scheme …] [--forward-to URL]`: a webhook endpoint for
/// development that verifies and prints every delivery, and optionally relays it to a backend.
enum ListenCommand {
    static let description = CommandDescription(
        name: "webhooks listen",
        summary: "Receives webhooks on any path, verifies and prints each one, answers 2xx or 400, and can forward them.",
        options: [
            .value("port", "PORT", "The port to listen on (0: the system picks one, printed at start).", default: "8787"),
            .value("host", "ADDRESS", "The IPv4 address to bind.", default: "127.0.0.1"),
            CommonOptions.scheme,
            CommonOptions.secret,
            CommonOptions.tolerance,
            .value("forward-to", "URL", "Relay each verified webhook (same body, same signature headers) to this URL and answer with its answer."),
            .value("max-body-bytes", "BYTES", "The largest body accepted (413 above).", default: String(10 << 20)),
            .flag("json", "Print one JSON object per received webhook (with its headers) instead of text lines."),
            .flag("dry-run", "Check the options and the secret, print the resolved configuration as JSON, and exit without listening."),
        ],
        examples: [
            "webhooks listen --port 8787 --secret pk_test_123",
            "webhooks listen --scheme standard --secret whsec_c2VjcmV0 --forward-to http://127.0.0.1:3000/webhooks",
            "webhooks listen --port 0 --secret pk_test_123 --json --dry-run",
        ])

    static let command = Webhooks.Command(description: description) { arguments in
        CommandMain.run(description, arguments: arguments) { options in
            let scheme = try options.scheme()
            let secret = try options.secret()
            let tolerance = try options.integer("tolerance", in: 0...Int(Int32.max)) ?? WebhookVerifier.defaultTolerance
            let verifier: WebhookVerifier
            do throws(WebhookVerificationError) {
                verifier = try WebhookVerifier(scheme: scheme, secret: secret, tolerance: tolerance)
            } catch {
                throw UsageError("--secret: \(error.message)")
            }
            let forward = options.string("forward-to")
            if let forward, !(forward.hasPrefix("http://") || forward.hasPrefix("https://")) {
                throw UsageError("--forward-to must be an http:// or https:// URL, not '\(forward)'")
            }
            let configuration = ServerConfiguration(
                host: try options.ipv4("host") ?? "127.0.0.1", port: try options.port("port") ?? 8787,
                maxBodyBytes: try options.integer("max-body-bytes", in: 0...(1 << 30)) ?? (10 << 20), drainSeconds: 1)
            if options.flag("dry-run") {
                // The secret is checked above but never printed: a dry run's output may end up in a CI log.
                var resolved: [String: Any] = [
                    "service": "webhooks listen", "host": configuration.host, "port": Int(configuration.port),
                    "scheme": scheme.rawValue, "tolerance": tolerance, "maxBodyBytes": configuration.maxBodyBytes,
                    "output": options.flag("json") ? "json" : "text",
                ]
                if let forward { resolved["forwardTo"] = forward }
                printJSONObject(resolved)
                return
            }
            let receiver = WebhookReceiver(
                verifier: verifier, forwardTo: forward, output: options.flag("json") ? .json : .text, print: CommandMain.say)
            var router = Router()
            router.get("/healthz") { _ in .text("ok\n") }
            router.fallback = receiver
            let server = Server(name: "webhooks", configuration: configuration, responder: router)
            CommandMain.blockTerminationSignals()
            do {
                try server.start()
            } catch {
                throw UsageError("\(error)")
            }
            let shownHost = configuration.host == "0.0.0.0" ? "127.0.0.1" : configuration.host
            var banner = "listening on http://\(shownHost):\(server.port) (\(scheme.rawValue), tolerance \(tolerance) s)"
            if let forward { banner += ", forwarding to \(forward)" }
            CommandMain.say(banner)
            CommandMain.waitForTerminationSignal()
            server.stop()
        }
    }
}
