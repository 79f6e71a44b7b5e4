/// A refusal of a sandbox service, as its rules throw it: the status, the stable code, the
/// message and the field of the one ``ErrorEnvelope``. The rules know nothing of HTTP; the router
/// turns any thrown one into its envelope (SandboxHTTP's `HTTPResponseError` is one that also
/// builds its own answer).
///
/// ```swift
/// struct CheckoutError: ServiceError {
///     let status: Int, code: ErrorCode, message: String, field: String?
///     static let expired = CheckoutError(status: 410, code: .checkoutExpired, message: "The checkout expired.", field: nil)
/// }
/// ```
public protocol ServiceError: Error, Sendable {
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
}

extension ServiceError {
    public var headers: [(String, String)] { [] }

    /// The envelope the refusal is answered with.
    public var envelope: ErrorEnvelope { ErrorEnvelope(code: code, message: message, field: field) }
}
