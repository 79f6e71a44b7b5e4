import Foundation
import SandboxHTTPClient
import Testing

// The small JSON client the webhook tests talk through (after PaymentTests/Support/HTTP.swift).

/// One client for the suite; it pools keep-alive connections and is safe to share.
let webhookTestHTTP = HTTPClient(configuration: .init(connectTimeout: .seconds(5), totalTimeout: .seconds(20)))

/// An answer from a service, decoded as far as JSON goes.
struct Reply: CustomStringConvertible, @unchecked Sendable {
    /// `POST /terminal/v1/transactions/sale`: what was asked, for messages.
    var request: String
    /// The HTTP status, or 0 when no answer came (the transport error is in `text`).
    var status: Int
    var text: String
    var json: Any?

    var object: [String: Any] { json as? [String: Any] ?? [:] }
    var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }

    subscript(key: String) -> Any? { object[key] }
    func string(_ key: String) -> String? { object[key] as? String }
    func int(_ key: String) -> Int? { (object[key] as? NSNumber)?.intValue }
    func bool(_ key: String) -> Bool? { object[key] as? Bool }
    func array(_ key: String) -> [[String: Any]] { object[key] as? [[String: Any]] ?? [] }

    var description: String {
        let body = text.count > 600 ? String(text.prefix(600)) + "…" : text
        return "\(request) → \(status) \(body)"
    }
}

/// A service seen over HTTP.
struct API: Sendable {
    /// `http://127.0.0.1:PORT`.
    var baseURL: String

    func call(
        _ method: String, _ path: String, bearer: String? = nil, body: [String: Any]? = nil, headers extra: [(String, String)] = []
    ) async -> Reply {
        var headers: HTTPClientHeaders = ["Accept": "application/json"]
        if let bearer { headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        for (name, value) in extra { headers.add(name: name, value: value) }
        var bytes: [UInt8] = []
        if let body {
            bytes = Array((try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data())
            headers.add(name: "Content-Type", value: "application/json")
        }
        let label = "\(method) \(path)"
        do {
            let response = try await webhookTestHTTP.send(
                HTTPClientRequest(method: .init(rawValue: method), url: baseURL + path, headers: headers, body: bytes))
            let json = response.body.isEmpty ? nil : try? JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed])
            return Reply(request: label, status: response.status, text: response.bodyText, json: json)
        } catch {
            return Reply(request: label, status: 0, text: "transport error: \(error)", json: nil)
        }
    }
}

/// Expects `status` (and the error `code`, when given); the reply, for chaining.
@discardableResult
func expectReply(
    _ reply: Reply, _ status: Int, _ code: String? = nil, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
) -> Reply {
    if reply.status != status || (code != nil && reply.errorCode != code) {
        Issue.record("\(step): expected \(status)\(code.map { " \($0)" } ?? ""); got \(reply)", sourceLocation: sourceLocation)
    }
    return reply
}

/// Parses the wire's ISO 8601 times (whole seconds or with fractions).
func parseTime(_ value: Any?) -> Date? {
    guard let text = value as? String else { return nil }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
}

/// Polls `condition` every 20 ms until it holds or `seconds` pass; whether it held.
func eventually(_ seconds: Double = 10, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}
