import Foundation
import SandboxWire

/// The HTTP module's own ``HTTPResponseError``: the one envelope every service answers with.
///
/// On the wire it is `{"error": {"code": "...", "message": "...", "field": "..."}}`. The code is
/// stable and meant for machines; the message is for people; the field, when present, names the
/// part of the request that is wrong (`amount`, `query.page`, `header.Authorization`).
///
/// ```swift
/// throw HTTPError(status: 404, code: .terminalNotFound, message: "No terminal with that id.")
/// ```
public struct HTTPError: HTTPResponseError, Equatable {
    public var status: Int
    public var code: ErrorCode
    public var message: String
    public var field: String?
    /// Extra headers the answer needs (`Allow` on a 405, `Retry-After` on a 429).
    public var headers: [(String, String)]

    public init(status: Int, code: ErrorCode, message: String, field: String? = nil, headers: [(String, String)] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers
    }

    public static func == (lhs: HTTPError, rhs: HTTPError) -> Bool {
        lhs.status == rhs.status && lhs.code == rhs.code && lhs.message == rhs.message && lhs.field == rhs.field
    }
}

extension HTTPError {
    public static func badRequest(_ message: String, code: ErrorCode, field: String? = nil) -> HTTPError {
        HTTPError(status: 400, code: code, message: message, field: field)
    }

    public static let notFound = HTTPError(status: 404, code: .notFound, message: "No resource at this path.")

    public static func methodNotAllowed(allowed: [String]) -> HTTPError {
        let allow = allowed.joined(separator: ", ")
        return HTTPError(
            status: 405, code: .methodNotAllowed,
            message: "This path accepts \(allow) only.", headers: [("Allow", allow)])
    }

    public static func payloadTooLarge(limit: Int) -> HTTPError {
        HTTPError(status: 413, code: .payloadTooLarge, message: "The request body is larger than \(limit) bytes.")
    }

    public static let unsupportedMediaType = HTTPError(
        status: 415, code: .unsupportedMediaType, message: "The request body must be JSON (Content-Type: application/json).",
        field: "header.Content-Type")

    /// A write that found the disk full: nothing of it was kept; the client may try again later.
    public static let storageFull = HTTPError(
        status: 503, code: .storageFull,
        message: "The sandbox's disk is full: nothing of this request was kept. Free some space and try again.",
        headers: [("Retry-After", "30")])

    /// What any error that is not an ``HTTPResponseError`` becomes: no detail leaks to the client.
    public static let internalError = HTTPError(
        status: 500, code: .internalError, message: "The sandbox failed to answer this request; see its log.")
}
