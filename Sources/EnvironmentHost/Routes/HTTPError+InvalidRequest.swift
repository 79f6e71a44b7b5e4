import HostRules
import SandboxHTTP

/// A refusal of a request's shape that the routes find themselves (a header, a query, a path),
/// as ``FieldError`` does for the rules.
extension HTTPError {
    static func invalidRequest(_ message: String, field: String) -> HTTPError {
        HTTPError(status: 400, code: .invalidRequest, message: message, field: field)
    }
}
