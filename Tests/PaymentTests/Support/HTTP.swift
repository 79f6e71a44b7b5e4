import Foundation
import SandboxHTTPClient
import Testing

// The small JSON client the payment tests talk through (after LifecycleTests/Support/API.swift),
// with request headers (Idempotency-Key) and response headers (Idempotent-Replayed) at hand.

/// One client for the whole suite; it pools keep-alive connections and is safe to share.
let paymentHTTP = HTTPClient(configuration: .init(connectTimeout: .seconds(5), totalTimeout: .seconds(15)))

/// An answer from a service, decoded as far as JSON goes.
struct Reply: CustomStringConvertible, @unchecked Sendable {
    /// `[EU] POST /terminal/v1/transactions/sale`: what was asked, for messages.
    var request: String
    /// The HTTP status, or 0 when no answer came (the transport error is in `text`).
    var status: Int
    var text: String
    var json: Any?
    var headers: HTTPClientHeaders = [:]

    var object: [String: Any] { json as? [String: Any] ?? [:] }
    var error: [String: Any]? { object["error"] as? [String: Any] }
    var errorCode: String? { error?["code"] as? String }
    var errorMessage: String? { error?["message"] as? String }
    var errorField: String? { error?["field"] as? String }

    subscript(key: String) -> Any? { object[key] }
    func string(_ key: String) -> String? { object[key] as? String }
    func bool(_ key: String) -> Bool? { object[key] as? Bool }
    func int(_ key: String) -> Int? { (object[key] as? NSNumber)?.intValue }
    func double(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
    func array(_ key: String) -> [Any]? { object[key] as? [Any] }
    func header(_ name: String) -> String? { headers.first(name: name) }

    /// `transactionStatus` of a TransactionDetail.
    var txStatus: String? { string("transactionStatus") }
    var transactionId: String? { string("transactionId") }

    var description: String {
        let body = text.count > 700 ? String(text.prefix(700)) + "…" : text
        return "\(request) → \(status) \(body)"
    }
}

/// A service of the running sandbox seen over HTTP.
struct Service: Sendable {
    /// The region id, used to label every request.
    var name: String
    /// `http://127.0.0.1:PORT`.
    var baseURL: String

    /// Sends a request; `body` is a JSON object (sorted keys, so the same object is the same bytes),
    /// or `raw` text as it is.
    func call(
        _ method: String, _ path: String, bearer: String? = nil, body: [String: Any]? = nil, raw: String? = nil,
        headers extra: [(String, String)] = []
    ) async -> Reply {
        var headers: HTTPClientHeaders = ["Accept": "application/json"]
        if let bearer { headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        for (name, value) in extra { headers.add(name: name, value: value) }
        var bytes: [UInt8] = []
        if let body {
            bytes = Array((try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data())
        } else if let raw {
            bytes = Array(raw.utf8)
        }
        if !bytes.isEmpty { headers.add(name: "Content-Type", value: "application/json") }
        let label = "[\(name)] \(method) \(path)"
        do {
            let response = try await paymentHTTP.send(
                HTTPClientRequest(method: .init(rawValue: method), url: baseURL + path, headers: headers, body: bytes))
            let json =
                response.body.isEmpty ? nil : try? JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed])
            return Reply(request: label, status: response.status, text: response.bodyText, json: json, headers: response.headers)
        } catch {
            return Reply(request: label, status: 0, text: "transport error: \(error)", json: nil)
        }
    }

    /// A GET of any URL (a receipt page), labelled like the others.
    func fetch(_ url: String) async -> Reply {
        let label = "[\(name)] GET \(url)"
        do {
            let response = try await paymentHTTP.send(HTTPClientRequest(method: .get, url: url, headers: [:], body: []))
            let json = try? JSONSerialization.jsonObject(with: Data(response.body))
            return Reply(request: label, status: response.status, text: response.bodyText, json: json, headers: response.headers)
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
    _ reply: Reply, _ status: Int, _ code: String? = nil, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
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

/// Expects `status` with one of `codes`, for a refusal whose code docs/card-payments.md does not name.
@discardableResult
func expectReply(
    _ reply: Reply, _ status: Int, oneOf codes: Set<String>, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
) -> Reply {
    if reply.status != status || !codes.contains(reply.errorCode ?? "") || (reply.errorMessage ?? "").isEmpty {
        Issue.record("\(step): expected \(status) with one of \(codes.sorted()); got \(reply)", sourceLocation: sourceLocation)
    }
    return reply
}

/// Expects a TransactionDetail answer (`status` 200/201) whose `transactionStatus` is `transactionStatus`
/// and, when given, whose `responseCode` is `responseCode`.
@discardableResult
func expectTransaction(
    _ reply: Reply, _ status: Int, _ transactionStatus: String, responseCode: String?? = .none, _ step: String,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Reply {
    expectReply(reply, status, nil, step, sourceLocation: sourceLocation)
    if reply.status == status {
        #expect(
            reply.txStatus == transactionStatus,
            "\(step): expected transactionStatus \(transactionStatus); got \(reply)", sourceLocation: sourceLocation)
        // Every TransactionDetail answer carries the seed's 37 keys.
        expectDetailShape(reply, step, sourceLocation: sourceLocation)
        if case .some(let code) = responseCode {
            #expect(
                reply.string("responseCode") == code,
                "\(step): expected responseCode \(code ?? "null"); got \(reply)", sourceLocation: sourceLocation)
        }
    }
    return reply
}

func matches(_ text: String?, _ pattern: String) -> Bool {
    guard let text else { return false }
    return text.range(of: pattern, options: .regularExpression) != nil
}

/// Parses an ISO 8601 time string (any offset, fractions allowed).
func parseTime(_ value: Any?) -> Date? {
    guard let text = value as? String else { return nil }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
}

/// `date` written in the +02:00 offset, e.g. `2026-11-29T14:00:00.000+02:00` (or without fractions).
func plusTwo(_ date: Date, fractions: Bool = true) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 2 * 3600)
    formatter.dateFormat = fractions ? "yyyy-MM-dd'T'HH:mm:ss.SSSxxx" : "yyyy-MM-dd'T'HH:mm:ssxxx"
    return formatter.string(from: date)
}

/// `date` in UTC, `2026-11-29T12:00:00Z`.
func utc(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
}

/// Percent-encodes a query value (`+` and `:` included).
func q(_ value: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
}
