import Foundation
import SandboxCrypto

/// Verifies received webhooks: signature first, then the timestamp against a tolerance.
///
/// Keep one verifier per secret (it decodes the secret once) and hand it the raw body bytes
/// exactly as they arrived:
///
/// ```swift
/// let verifier = try WebhookVerifier(scheme: .monei, secret: apiKey)
/// do {
///     let webhook = try verifier.verify(headers: request.headers, body: request.body)
///     fulfil(orderFrom: request.body, signedAt: webhook.timestamp)
/// } catch {
///     return .badRequest(error.reason)   // missing_header, downgrade, no_matching_signature …
/// }
/// ```
///
/// The clock is injected (`clock:`) so tests, and a sandbox whose clock was moved, decide what
/// "now" is; by default it is the system's.
public struct WebhookVerifier: Sendable {
    /// Five minutes, as Stripe and the Standard Webhooks libraries use.
    public static let defaultTolerance = 300

    /// The system clock in Unix seconds: the one place this library reads real time (`time(2)`:
    /// whole seconds are all a tolerance needs, and it costs a tenth of reading a `Date`).
    public static let systemClock: @Sendable () -> Int = { Int(time(nil)) }

    public let scheme: WebhookScheme
    /// How far, in seconds, the signed timestamp may be from now, in either direction.
    public let tolerance: Int
    /// Keyed once here; each verification runs on a context of its own, so one verifier serves many threads.
    private let key: HMACSHA256.Key
    private let clock: @Sendable () -> Int

    /// A verifier for one scheme and secret.
    ///
    /// - Parameters:
    ///   - scheme: Which headers to read and how the signed string is built.
    ///   - secret: MONEI: the merchant's API key. Standard Webhooks: `whsec_` + base64 (prefix optional).
    ///   - tolerance: Seconds the timestamp may differ from now, 0 or more (default 300).
    ///   - clock: Now, in Unix seconds.
    /// - Throws: ``WebhookVerificationError/invalidSecret`` for a Standard Webhooks secret that is not base64.
    public init(
        scheme: WebhookScheme, secret: String, tolerance: Int = WebhookVerifier.defaultTolerance,
        clock: @escaping @Sendable () -> Int = WebhookVerifier.systemClock
    ) throws(WebhookVerificationError) {
        precondition(tolerance >= 0, "a webhook tolerance is 0 seconds or more")
        self.scheme = scheme
        self.tolerance = tolerance
        self.clock = clock
        switch scheme {
        case .monei:
            key = HMACSHA256.Key(Array(secret.utf8))
        case .standard:
            guard let key = StandardScheme.key(secret: secret) else { throw .invalidSecret }
            self.key = HMACSHA256.Key(key)
        }
    }

    /// Checks that `body` carries a valid signature in `headers`, signed within the tolerance.
    ///
    /// - Parameters:
    ///   - headers: The request's headers; names are looked up case-insensitively.
    ///   - body: The raw request body, byte for byte.
    /// - Returns: The scheme, the message id (Standard Webhooks) and the signed timestamp.
    /// - Throws: ``WebhookVerificationError``, whose kind says why (see its documentation for the order).
    @discardableResult
    @inlinable
    public func verify(
        headers: [String: String], body: some Collection<UInt8>
    ) throws(WebhookVerificationError) -> VerifiedWebhook {
        // Everything below runs on one concrete type: no generic dispatch per byte or per call.
        // Inlinable, so that the caller's body type ([UInt8], Data) is specialised in its own module.
        let result = body.withContiguousStorageIfAvailable { bytes in
            Result { () throws(WebhookVerificationError) in try verify(headers: headers, bytes: bytes) }
        }
        if let result { return try result.get() }
        return try Array(body).withUnsafeBufferPointer { bytes in
            Result { () throws(WebhookVerificationError) in try verify(headers: headers, bytes: bytes) }
        }.get()
    }

    @usableFromInline
    func verify(
        headers: [String: String], bytes body: UnsafeBufferPointer<UInt8>
    ) throws(WebhookVerificationError) -> VerifiedWebhook {
        let verified: VerifiedWebhook
        let timestampHeader: String
        switch scheme {
        case .monei:
            let timestamp = try MoneiScheme.verify(headers: headers, body: body, key: key)
            verified = VerifiedWebhook(scheme: .monei, id: nil, timestamp: timestamp)
            timestampHeader = MoneiScheme.headerName
        case .standard:
            let (id, timestamp) = try StandardScheme.verify(headers: headers, body: body, key: key)
            verified = VerifiedWebhook(scheme: .standard, id: id, timestamp: timestamp)
            timestampHeader = StandardScheme.timestampHeader
        }
        let now = clock()
        // Saturating bounds: an absurd clock or tolerance must not trap in the arithmetic.
        let earliest = now.subtractingReportingOverflow(tolerance)
        let latest = now.addingReportingOverflow(tolerance)
        guard earliest.overflow || verified.timestamp >= earliest.partialValue,
            latest.overflow || verified.timestamp <= latest.partialValue
        else {
            throw .outsideTolerance(timestampHeader, timestamp: verified.timestamp, now: now, tolerance: tolerance)
        }
        return verified
    }

    /// Verifies one webhook without keeping a verifier.
    ///
    /// ```swift
    /// try WebhookVerifier.verify(scheme: .standard, headers: headers, body: body, secret: "whsec_…")
    /// ```
    ///
    /// - Parameters:
    ///   - scheme: ``WebhookScheme/monei`` or ``WebhookScheme/standard``.
    ///   - headers: The request's headers; names are looked up case-insensitively.
    ///   - body: The raw request body.
    ///   - secret: The API key (MONEI) or the `whsec_…` secret (Standard Webhooks).
    ///   - tolerance: Seconds the timestamp may differ from `now` (default 300).
    ///   - now: Now in Unix seconds (default: the system clock).
    /// - Returns: What the signature established.
    /// - Throws: ``WebhookVerificationError``.
    @discardableResult
    public static func verify(
        scheme: WebhookScheme, headers: [String: String], body: some Collection<UInt8>, secret: String,
        tolerance: Int = WebhookVerifier.defaultTolerance, now: Int = WebhookVerifier.systemClock()
    ) throws(WebhookVerificationError) -> VerifiedWebhook {
        try WebhookVerifier(scheme: scheme, secret: secret, tolerance: tolerance, clock: { now })
            .verify(headers: headers, body: body)
    }
}

extension WebhookVerifier: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The scheme and tolerance only: a verifier logged or dumped never shows its key.
    public var description: String { "WebhookVerifier(scheme: \(scheme.rawValue), tolerance: \(tolerance) s)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["scheme": scheme, "tolerance": tolerance]) }
}
