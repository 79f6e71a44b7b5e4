import Foundation
import SandboxHTTPClient

/// An answer from a service, decoded as far as JSON goes: every suite reads status, body, the
/// error envelope and the response headers the same way, and its description names the request so
/// a failed expectation says where it happened.
public struct HTTPReply: CustomStringConvertible, @unchecked Sendable {
    /// `[EU] POST /terminal/v1/sessions`: what was asked, for messages.
    public var request: String
    /// The HTTP status, or 0 when no answer came (the transport error is in `text`).
    public var status: Int
    public var text: String
    public var json: Any?
    public var headers: HTTPClientHeaders

    public init(request: String, status: Int, text: String, json: Any?, headers: HTTPClientHeaders = [:]) {
        self.request = request
        self.status = status
        self.text = text
        self.json = json
        self.headers = headers
    }

    public var object: [String: Any] { json as? [String: Any] ?? [:] }
    public var error: [String: Any]? { object["error"] as? [String: Any] }
    public var errorCode: String? { error?["code"] as? String }
    public var errorMessage: String? { error?["message"] as? String }
    public var errorField: String? { error?["field"] as? String }

    public subscript(key: String) -> Any? { object[key] }
    public func string(_ key: String) -> String? { object[key] as? String }
    public func bool(_ key: String) -> Bool? { object[key] as? Bool }
    public func int(_ key: String) -> Int? { (object[key] as? NSNumber)?.intValue }
    public func double(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
    public func array(_ key: String) -> [Any]? { object[key] as? [Any] }
    /// The objects of a JSON array (none when `key` is missing or not an array of objects).
    public func objects(_ key: String) -> [[String: Any]] { object[key] as? [[String: Any]] ?? [] }
    public func header(_ name: String) -> String? { headers.first(name: name) }

    public var description: String {
        let body = text.count > 700 ? String(text.prefix(700)) + "…" : text
        return "\(request) → \(status) \(body)"
    }
}
