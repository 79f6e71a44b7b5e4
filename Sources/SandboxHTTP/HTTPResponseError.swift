import SandboxWire

/// A ``ServiceError`` that builds its own answer (the HTTP module's ``HTTPError``, a surface with a
/// body of its own); the router answers any other thrown `ServiceError` with its envelope.
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
public protocol HTTPResponseError: ServiceError {
    /// The answer itself: the envelope by default; an API surface with a body of its own (MONEI's
    /// `{"status", "statusCode", "message", "requestId"}`) answers that instead.
    var response: Response { get }
}

extension HTTPResponseError {
    /// The envelope as a response.
    public var response: Response { Response.refusal(self) }
}

extension Response {
    /// A rule's refusal (any ``ServiceError``) as its envelope, with its headers.
    public static func refusal(_ error: any ServiceError) -> Response {
        var response = Response.json(error.envelope, status: error.status)
        response.headers.append(contentsOf: error.headers)
        return response
    }
}
