import CommandLineSupport
import Foundation
import SandboxCore
import SandboxHTTP
import WebhookInbox

/// `webhook-inbox [--port N]`: the webhook inbox of `sandbox up` on its own, for a layout with one
/// process per service (docker-compose.yml), where each host is started with `--webhook-inbox URL`.
public enum InboxCommand {
    public static let description = CommandDescription(
        name: "webhook-inbox",
        summary: "Runs the webhook inbox: it receives the fixture merchants' webhooks, checks their MONEI signatures and lists them on its page.",
        options: [.value("port", "N", "TCP port (default: the port after the wallet's, 8111).")]
            + Listening.options(defaultPort: nil, accessLogDefault: "-") + Resources.options,
        files: Resources.filesHelp,
        examples: ["webhook-inbox", "webhook-inbox --port 9111 --host 0.0.0.0"])

    public static func run(_ options: ParsedArguments) throws {
        let resources = try Resources.locate(options)
        let port = try options.port("port") ?? UInt16(HostCommand.basePort + resources.catalogue.ports.inbox)
        let configuration = WebhookInbox.Configuration(
            server: try Listening.server(options, port: port), webRoot: resources.web.appendingPathComponent("inbox"),
            openAPIFile: resources.openAPI.appendingPathComponent("webhook-inbox.yaml"), signingKeys: resources.inboxSigningKeys,
            accessLog: try Listening.accessLog(options, clock: WallClock()))
        if options.flag("dry-run") {
            printJSON(["service": "webhook-inbox", "host": configuration.server.host, "port": Int(port)])
            return
        }
        try serveUntilSignalled({ try WebhookInbox.start(configuration: configuration) }) { "webhook-inbox listening on \($0)" }
    }
}

extension Resources {
    /// Region id → merchant id → the key the inbox checks that merchant's MONEI signatures with.
    var inboxSigningKeys: [String: [String: String]] {
        var keys: [String: [String: String]] = [:]
        for region in catalogue.regions {
            for merchant in fixtures(region).merchants { keys[region.id, default: [:]][merchant.id] = merchant.apiKey }
        }
        return keys
    }
}
