import Foundation
import SandboxHTTPClient
import Testing

// The one small client every lifecycle test talks through: JSON in, JSON out, status and the
// error envelope's code at hand, and a description that names the region and the request so
// a failed expectation says where it happened.

/// One client for the whole suite; it pools keep-alive connections and is safe to share.
let sharedHTTP = HTTPClient(configuration: .init(connectTimeout: .seconds(5), totalTimeout: .seconds(15)))

/// An answer from a service, decoded as far as JSON goes.
struct Reply: CustomStringConvertible {
    /// `[EU] POST /terminal/v1/sessions`: what was asked, for messages.
    var request: String
    /// The HTTP status, or 0 when no answer came (the transport error is in `text`).
    var status: Int
    var text: String
    var json: Any?

    var object: [String: Any] { json as? [String: Any] ?? [:] }
    var error: [String: Any]? { object["error"] as? [String: Any] }
    var errorCode: String? { error?["code"] as? String }
    var errorMessage: String? { error?["message"] as? String }

    subscript(key: String) -> Any? { object[key] }
    func string(_ key: String) -> String? { object[key] as? String }
    func bool(_ key: String) -> Bool? { object[key] as? Bool }
    func array(_ key: String) -> [Any]? { object[key] as? [Any] }

    var description: String {
        let body = text.count > 600 ? String(text.prefix(600)) + "…" : text
        return "\(request) → \(status) \(body)"
    }
}

/// A service of the running sandbox (an environment host) seen over HTTP.
struct Service: Sendable {
    /// The region id, used to label every request.
    var name: String
    /// `http://127.0.0.1:PORT`.
    var baseURL: String

    /// Sends a request; `body` is a JSON object (or `raw` bytes as they are).
    func call(
        _ method: String, _ path: String, bearer: String? = nil, authorization: String? = nil,
        body: [String: Any]? = nil, raw: String? = nil
    ) -> Reply {
        var headers: HTTPClientHeaders = ["Accept": "application/json"]
        if let bearer { headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let authorization { headers.add(name: "Authorization", value: authorization) }
        var bytes: [UInt8] = []
        if let body {
            bytes = Array((try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data())
        } else if let raw {
            bytes = Array(raw.utf8)
        }
        if !bytes.isEmpty { headers.add(name: "Content-Type", value: "application/json") }
        let label = "[\(name)] \(method) \(path)"
        do {
            let response = try sharedHTTP.send(
                HTTPClientRequest(method: .init(rawValue: method), url: baseURL + path, headers: headers, body: bytes))
            let json = response.body.isEmpty ? nil : try? JSONSerialization.jsonObject(with: Data(response.body))
            return Reply(request: label, status: response.status, text: response.bodyText, json: json)
        } catch {
            return Reply(request: label, status: 0, text: "transport error: \(error)", json: nil)
        }
    }
}

// MARK: - Expectations

/// Expects `status` and, for an error, the envelope `{"error": {"code", "message"}}` with `code`.
///
/// `step` names what the test was doing; the reply names the region and the request.
@discardableResult
func expectReply(
    _ reply: Reply, _ status: Int, _ code: String? = nil, _ step: String,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Reply {
    let wanted = code.map { "\(status) \($0)" } ?? "\(status)"
    let envelope = reply.errorCode?.isEmpty == false && reply.errorMessage?.isEmpty == false
    if reply.status != status || (code != nil && reply.errorCode != code) {
        Issue.record("\(step): expected \(wanted); got \(reply)", sourceLocation: sourceLocation)
    } else if status >= 400 && !envelope {
        Issue.record(
            "\(step): not the error envelope {\"error\": {\"code\", \"message\"}}: \(reply)", sourceLocation: sourceLocation)
    }
    return reply
}

/// A check step for a `verify` call given a code or token that must not pass: the contract answers
/// verify with `{valid}`, so either `200 {"valid": false}` (with `reason` equal to the code, if the
/// host gives one) or the specific error is accepted.
func expectNotValid(
    _ reply: Reply, _ status: Int, _ code: String, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    if reply.status == 200 {
        #expect(
            reply.bool("valid") == false, "\(step): a bad code/token was called valid: \(reply)", sourceLocation: sourceLocation)
        // The host may say why beside `valid`; when it does, it must be the same code.
        if let reason = reply.string("reason") {
            #expect(reason == code, "\(step): expected reason \(code); got \(reply)", sourceLocation: sourceLocation)
        }
    } else {
        expectReply(reply, status, code, step, sourceLocation: sourceLocation)
    }
}

/// Expects an ISO 8601 UTC time string (`2026-11-29T12:00:00Z`, fractions allowed).
func expectTime(_ value: Any?, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let text = value as? String ?? ""
    #expect(
        text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$"#, options: .regularExpression) != nil,
        "\(step): \(String(describing: value)) is not an ISO 8601 UTC time", sourceLocation: sourceLocation)
}

/// Parses an ISO 8601 UTC time string.
func parseTime(_ value: Any?) -> Date? {
    guard let text = value as? String else { return nil }
    let formatter = ISO8601DateFormatter()
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
}

func matches(_ text: String?, _ pattern: String) -> Bool {
    guard let text else { return false }
    return text.range(of: pattern, options: .regularExpression) != nil
}
