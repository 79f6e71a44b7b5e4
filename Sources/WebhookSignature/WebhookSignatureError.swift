/// Why a webhook could not be signed.
///
/// ```swift
/// do {
///     let headers = try WebhookSigner.headers(scheme: .standard, id: "msg_1", timestamp: now, body: body, secret: secret)
/// } catch .invalidSecret {
///     // The merchant's Standard Webhooks secret is not `whsec_` + base64.
/// }
/// ```
public struct WebhookSignatureError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case invalidSecret = "invalid_secret"
    }

    private let code: Code

    /// Why, in words for a log line.
    public let message: String

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The secret cannot key the scheme: a Standard Webhooks secret whose part after `whsec_`
    /// is empty or not base64.
    public static let invalidSecret = WebhookSignatureError(
        .invalidSecret, "a Standard Webhooks secret is whsec_ followed by non-empty base64")

    /// The stable machine code (`invalid_secret`).
    public var reason: String { code.rawValue }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String { "\(code.rawValue): \(message)" }
}
