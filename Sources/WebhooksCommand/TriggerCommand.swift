import CommandLineSupport
import Foundation
import SandboxHTTP
import SandboxHTTPClient

/// `webhooks trigger --env EU --event NAME [--endpoints FILE]`: asks a running sandbox host to
/// send a webhook now, through `POST /_sandbox/webhooks/trigger {"event": NAME}`.
enum TriggerCommand {
    static let description = CommandDescription(
        name: "webhooks trigger",
        summary: "Asks a sandbox host to send a webhook of an event type now; prints the event id.",
        options: [
            .value("env", "REGION", "Region id of the host (as in endpoints.json: EU, ANZ, MBANK …).", default: "EU"),
            .value("event", "NAME", "The event type to send (payment.succeeded, refund.succeeded …)."),
            .value("endpoints", "FILE", "The endpoints.json 'sandbox up' wrote (default: .sandbox/endpoints.json)."),
            .value("url", "URL", "The host's base URL, instead of looking it up in endpoints.json."),
            .value(
                "control-key", "KEY",
                "The sandbox control key of a host that listens beyond loopback (default: $SANDBOX_CONTROL_KEY, else endpoints.json's controlKey)."),
            .flag("dry-run", "Print the request it would send (method, URL, body) as JSON, and send nothing."),
        ],
        examples: [
            "webhooks trigger --event payment.succeeded",
            "webhooks trigger --env MBANK --event payment.failed --endpoints .sandbox/endpoints.json",
            "webhooks trigger --url http://127.0.0.1:8100 --event refund.succeeded --dry-run",
        ])

    static let command = Webhooks.Command(description: description) { arguments in
        CommandMain.run(description, arguments: arguments) { options in
            let event = try options.required("event", "NAME")
            let base: String
            var controlKey = options.string("control-key")
                ?? ProcessInfo.processInfo.environment["SANDBOX_CONTROL_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            if let url = options.string("url") {
                base = url
            } else {
                let endpoints = try SandboxEndpoints.load(explicit: options.string("endpoints"), otherwise: " (or --url URL)")
                base = try endpoints.host(for: options.string("env") ?? "EU")
                controlKey = controlKey ?? endpoints.contents.controlKey
            }
            let url = base.hasSuffix("/") ? String(base.dropLast()) : base
            let body = try JSON.encode(["event": event])
            if options.flag("dry-run") {
                printJSONObject([
                    "service": "webhooks trigger", "method": "POST", "url": url + "/_sandbox/webhooks/trigger",
                    "body": ["event": event],
                ])
                return
            }
            var headers: HTTPClientHeaders = ["Content-Type": "application/json", "Accept": "application/json"]
            if let controlKey { headers.add(name: ControlGate.header, value: controlKey) }
            let answer: HTTPClientResponse
            do throws(HTTPClientError) {
                answer = try HTTPClient().send(
                    HTTPClientRequest(
                        method: .post, url: url + "/_sandbox/webhooks/trigger",
                        headers: headers, body: body,
                        timeout: .seconds(15)))
            } catch {
                throw TriggerFailure("cannot reach \(url): \(error.message.isEmpty ? error.description : error.message)")
            }
            let object = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any]
            guard (200..<300).contains(answer.status) else {
                let envelope = object?["error"] as? [String: Any]
                let detail = envelope.map { "\($0["code"] ?? "error"): \($0["message"] ?? "")" } ?? answer.bodyText
                throw TriggerFailure("\(url) answered \(answer.status): \(detail)")
            }
            guard let eventID = object?["eventId"] as? String else {
                throw TriggerFailure("\(url) answered \(answer.status) without an eventId: \(answer.bodyText)")
            }
            print(eventID)
        }
    }
}

/// A trigger the host refused or could not take: exit 1 with this text.
struct TriggerFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
