import SandboxCrypto

/// Signs webhook bodies: the headers a sender adds to its `POST`.
///
/// ```swift
/// let body = Array(#"{"type":"payment.succeeded"}"#.utf8)
/// for (name, value) in try WebhookSigner.headers(scheme: .monei, id: "", timestamp: 1_700_000_000, body: body, secret: apiKey) {
///     request.headers.add(name: name, value: value)   // MONEI-Signature: t=1700000000,v1=…
/// }
/// ```
public enum WebhookSigner {
    /// The signature headers for `body`, in the order a sender writes them.
    ///
    /// - Parameters:
    ///   - scheme: ``WebhookScheme/monei`` gives one `MONEI-Signature` header;
    ///     ``WebhookScheme/standard`` gives `webhook-id`, `webhook-timestamp` and `webhook-signature`.
    ///   - id: The message id (Standard Webhooks; the same id on every retry of one event). MONEI ignores it.
    ///   - timestamp: When the message is sent, in Unix seconds (the sender's clock).
    ///   - body: The exact bytes that will be sent; any bytes, any length, including none.
    ///   - secret: MONEI: the merchant's API key, used as UTF-8 bytes. Standard: `whsec_` + base64.
    /// - Returns: `(name, value)` pairs.
    /// - Throws: ``WebhookSignatureError/invalidSecret`` when a Standard Webhooks secret is not base64.
    public static func headers(
        scheme: WebhookScheme, id: String, timestamp: Int, body: [UInt8], secret: String
    ) throws(WebhookSignatureError) -> [(name: String, value: String)] {
        switch scheme {
        case .monei:
            return [
                (name: MoneiScheme.headerName,
                 value: MoneiScheme.headerValue(timestamp: timestamp, body: body, key: Array(secret.utf8)))
            ]
        case .standard:
            return try headers(standardSecrets: [secret], id: id, timestamp: timestamp, body: body)
        }
    }

    /// The Standard Webhooks headers signed with each of `standardSecrets`: one `v1,…` signature per
    /// secret in `webhook-signature`, space-separated, so that a receiver holding either secret
    /// verifies (the overlap of a secret rotation).
    ///
    /// - Throws: ``WebhookSignatureError/invalidSecret`` when a secret is not `whsec_` + base64, or none is given.
    public static func headers(
        standardSecrets: [String], id: String, timestamp: Int, body: [UInt8]
    ) throws(WebhookSignatureError) -> [(name: String, value: String)] {
        guard !standardSecrets.isEmpty else { throw .invalidSecret }
        var signatures: [String] = []
        for secret in standardSecrets {
            guard let key = StandardScheme.key(secret: secret) else { throw .invalidSecret }
            signatures.append(StandardScheme.signatureValue(id: id, timestamp: timestamp, body: body, key: key))
        }
        return [
            (name: StandardScheme.idHeader, value: id),
            (name: StandardScheme.timestampHeader, value: String(timestamp)),
            (name: StandardScheme.signatureHeader, value: signatures.joined(separator: " ")),
        ]
    }

    /// A fresh Standard Webhooks message id, `msg_` and 24 random hexadecimal digits.
    ///
    /// - Returns: An id such as `msg_9f86d081884c7d659a2feaa0`.
    public static func newMessageID() -> String {
        "msg_" + Hex.encode(SecureRandom.bytes(count: 12))
    }

    /// A fresh Standard Webhooks secret, `whsec_` and 32 random bytes in base64.
    ///
    /// - Returns: A secret for ``headers(scheme:id:timestamp:body:secret:)`` and ``WebhookVerifier``.
    public static func newStandardSecret() -> String {
        StandardScheme.secretPrefix + Base64.encode(SecureRandom.bytes(count: 32))
    }
}
