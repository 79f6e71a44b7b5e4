/// Why a received webhook was refused: each reason a kind of its own, matched with `==`.
///
/// The checks run in a fixed order and the first failure wins:
///
/// 1. ``missingHeader``: a signature header the scheme needs is absent or empty.
/// 2. ``malformedHeader``: a header is there but cannot be read (no `t=`, a timestamp that is
///    not a whole number, an entry without `=` or `,`, no signature at all).
/// 3. ``downgrade``: the header is well formed and offers signatures, but only in schemes
///    other than `v1` (`v0=…`, `v1a,…`). No MAC is computed for them: a verifier that fell
///    back to a weaker or unknown scheme could be made to accept a forgery, so this is reported
///    as an attack on the scheme, not as a wrong signature.
/// 4. ``noMatchingSignature``: no `v1` signature is the HMAC of this body under this secret
///    (tampered body, wrong secret, wrong id or timestamp).
/// 5. ``timestampOutsideTolerance``: the signature is genuine but the timestamp is further than
///    the tolerance from now, in the past (a replay) or in the future (a skewed clock). Checking
///    it after the signature, as Stripe does, means this reason is given only for messages the
///    secret's owner did sign.
///
/// ``invalidSecret`` is the verifier's own misconfiguration (a Standard Webhooks secret that is
/// not `whsec_` + base64), not the sender's fault.
///
/// ```swift
/// do {
///     try WebhookVerifier.verify(scheme: .monei, headers: request.headers, body: request.body, secret: apiKey)
/// } catch .timestampOutsideTolerance {
///     // Genuine but stale: a replay, or a clock that is off.
/// } catch {
///     return .badRequest(error.reason)
/// }
/// ```
///
/// Equality compares the kind only; ``message`` adds which header, and how far off the timestamp is.
public struct WebhookVerificationError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case missingHeader = "missing_header"
        case malformedHeader = "malformed_header"
        case downgrade = "downgrade"
        case noMatchingSignature = "no_matching_signature"
        case timestampOutsideTolerance = "timestamp_outside_tolerance"
        case invalidSecret = "invalid_secret"
    }

    private let code: Code

    /// Why, in words for a log line or a 400 answer (never contains the secret or the expected MAC).
    public let message: String

    /// The header the failure is about (`MONEI-Signature`, `webhook-timestamp`), when there is one.
    public let header: String?

    private init(_ code: Code, _ message: String, header: String? = nil) {
        self.code = code
        self.message = message
        self.header = header
    }

    /// A header the scheme needs is absent or empty.
    public static let missingHeader = WebhookVerificationError(.missingHeader, "a signature header is missing")

    /// A header is present but cannot be read.
    public static let malformedHeader = WebhookVerificationError(.malformedHeader, "a signature header is malformed")

    /// The header offers only signature schemes other than `v1`: refused as a downgrade attempt.
    public static let downgrade = WebhookVerificationError(
        .downgrade, "the header offers no v1 signature, only other schemes (downgrade refused)")

    /// No `v1` signature matches: the body was changed, or the secret is not the sender's.
    public static let noMatchingSignature = WebhookVerificationError(
        .noMatchingSignature, "no v1 signature matches this body and secret")

    /// The (genuine) signature's timestamp is further from now than the tolerance.
    public static let timestampOutsideTolerance = WebhookVerificationError(
        .timestampOutsideTolerance, "the timestamp is outside the tolerance")

    /// The verifier's secret cannot key the scheme.
    public static let invalidSecret = WebhookVerificationError(
        .invalidSecret, "the Standard Webhooks secret is not whsec_ followed by non-empty base64")

    /// The stable machine code: `missing_header`, `malformed_header`, `downgrade`,
    /// `no_matching_signature`, `timestamp_outside_tolerance` or `invalid_secret`.
    public var reason: String { code.rawValue }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `reason: message`, as the CLI prints it.
    public var description: String { "\(code.rawValue): \(message)" }

    static func missing(_ header: String) -> Self {
        Self(.missingHeader, "the \(header) header is missing", header: header)
    }

    static func malformed(_ header: String, _ why: String) -> Self {
        Self(.malformedHeader, "the \(header) header is malformed: \(why)", header: header)
    }

    static func downgrade(_ header: String, offered: [String]) -> Self {
        Self(
            .downgrade,
            "the \(header) header offers no v1 signature, only \(offered.joined(separator: ", ")) (downgrade refused)",
            header: header)
    }

    static func noMatch(_ header: String) -> Self {
        Self(.noMatchingSignature, "no v1 signature in \(header) matches this body and secret", header: header)
    }

    static func outsideTolerance(_ header: String, timestamp: Int, now: Int, tolerance: Int) -> Self {
        let difference = now.subtractingReportingOverflow(timestamp)
        let how = difference.overflow
            ? "is unrepresentably far from now"
            : difference.partialValue > 0
                ? "is \(difference.partialValue) s old" : "is \(difference.partialValue.magnitude) s in the future"
        return Self(
            .timestampOutsideTolerance, "the timestamp \(timestamp) \(how), beyond the tolerance of \(tolerance) s",
            header: header)
    }
}
