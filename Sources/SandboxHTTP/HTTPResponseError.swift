import SandboxWire

/// An error that knows the response it becomes, so the code that throws it (a module's rules)
/// need not build responses: the router turns any thrown one into the one envelope.
///
/// On the wire it is SandboxWire's ``ErrorEnvelope``, `{"error": {"code": "...", "message": "...",
/// "field": "..."}}`, as for ``HTTPError``, which is the HTTP module's own conformance. The code is
/// one of SandboxWire's ``ErrorCode``s, the list the SDK switches over too:
///
/// ```swift
/// struct CheckoutError: HTTPResponseError {
///     let status: Int, code: ErrorCode, message: String, field: String?
///     static let expired = CheckoutError(status: 410, code: .checkoutExpired, message: "The checkout expired.", field: nil)
/// }
/// router.post("/v1/checkouts/{id}/pay") { _ in throw CheckoutError.expired }   // 410 and its envelope
/// ```
public protocol HTTPResponseError: Error, Sendable {
    /// The HTTP status of the answer.
    var status: Int { get }
    /// The stable code, for machines.
    var code: ErrorCode { get }
    /// The message, for people.
    var message: String { get }
    /// The part of the request that is wrong (`amount`, `query.page`, `header.Authorization`), if one is.
    var field: String? { get }
    /// Extra headers the answer needs (`Allow` on a 405); none by default.
    var headers: [(String, String)] { get }
    /// The answer itself: the envelope by default; an API surface with a body of its own (MONEI's
    /// `{"status", "statusCode", "message", "requestId"}`) answers that instead.
    var response: Response { get }
}

extension HTTPResponseError {
    public var headers: [(String, String)] { [] }

    /// The envelope as a response.
    public var response: Response {
        var response = Response.json(ErrorEnvelope(code: code, message: message, field: field), status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}
