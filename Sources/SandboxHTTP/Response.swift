import FastJSON
import Foundation

/// What a handler answers: a status, headers in order and the body bytes.
public struct Response: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// The terminal or merchant the request acted for, for the request journal; never sent.
    public var journalSubject: String?
    /// Close the connection instead of sending this answer (a `drop` fault: the work was done,
    /// the client never hears of it).
    public var dropsConnection = false

    public init(status: Int = 200, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header with this name (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }

    /// A JSON response; keys sorted so equal values give equal bytes (ETags, golden files).
    public static func json(_ value: some Encodable, status: Int = 200) -> Response {
        do {
            return Response(status: status, headers: [("Content-Type", "application/json")], body: try JSON.encode(value))
        } catch {
            return HTTPError.internalError.response
        }
    }

    /// A JSON response from bytes that were encoded once, ahead of time (hot read paths).
    public static func json(bytes: [UInt8], status: Int = 200) -> Response {
        Response(status: status, headers: [("Content-Type", "application/json")], body: bytes)
    }

    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> Response {
        Response(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }
}

/// The one JSON encoding every service uses on the wire: `JSONEncoder`'s with sorted keys,
/// slashes as they are and ISO 8601 dates, made by `SortedJSONEncoder` (FastJSON).
public enum JSON {
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        try SortedJSONEncoder.encode(value)
    }
}
