import SandboxCrypto

/// Standard Webhooks v1: `webhook-id`, `webhook-timestamp` and
/// `webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`.
///
/// The secret is `whsec_` followed by base64; the key is the decoded bytes (the prefix is
/// optional, as in the reference libraries). `webhook-signature` is a space-separated list of
/// `<version>,<signature>`: several `v1` entries may appear during a key rotation, other versions
/// (`v1a` is the asymmetric Ed25519 one) are ignored.
enum StandardScheme {
    static let idHeader = "webhook-id"
    static let timestampHeader = "webhook-timestamp"
    static let signatureHeader = "webhook-signature"
    static let secretPrefix = "whsec_"

    /// The HMAC key of a `whsec_…` secret, or nil when the rest is empty or not base64.
    static func key(secret: String) -> [UInt8]? {
        var encoded = Substring(secret)
        if encoded.hasPrefix(secretPrefix) { encoded = encoded.dropFirst(secretPrefix.count) }
        guard let key = try? Base64.decode(encoded), !key.isEmpty else { return nil }
        return key
    }

    static func signatureValue(id: String, timestamp: Int, body: [UInt8], key: [UInt8]) -> String {
        let message = SignedMessage.standard(id: Array(id.utf8), timestamp: timestamp, body: body)
        return "v1," + Base64.encode(HMACSHA256.authenticate(key: key, message: message))
    }

    /// Checks the three headers against the body; returns the message id and the signed timestamp.
    static func verify(
        headers: [String: String], body: some Collection<UInt8>, key: HMACKey
    ) throws(WebhookVerificationError) -> (id: String, timestamp: Int) {
        guard let id = try HeaderLookup.value(idHeader, in: headers) else { throw .missing(idHeader) }
        guard let timestampText = try HeaderLookup.value(timestampHeader, in: headers) else {
            throw .missing(timestampHeader)
        }
        guard let signatures = try HeaderLookup.value(signatureHeader, in: headers) else {
            throw .missing(signatureHeader)
        }
        guard let timestamp = UnixTimestamp.parse(timestampText) else {
            throw .malformed(timestampHeader, "it must be whole Unix seconds")
        }
        var candidates: [ArraySlice<UInt8>] = []
        var otherVersions: [String] = []
        for entry in signatures.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
            guard let comma = entry.firstIndex(of: UInt8(ascii: ",")), comma != entry.startIndex else {
                throw .malformed(signatureHeader, "'\(entry.text())' is not <version>,<signature>")
            }
            let version = entry[..<comma]
            if version.elementsEqual("v1".utf8) {
                candidates.append(entry[(comma + 1)...])
            } else {
                let name = version.text() + ","
                if !otherVersions.contains(name) { otherVersions.append(name) }
            }
        }
        if candidates.isEmpty { throw .downgrade(signatureHeader, offered: otherVersions) }
        let expected = key.authenticate { block in
            SignedMessage.standard(id: id, timestamp: timestamp, body: body, after: block)
        }
        // Every candidate is compared, so the time taken does not tell which one matched.
        var matched = false
        let expectedBase64 = MACEncoding.base64(expected)
        for candidate in candidates where ConstantTime.equals(expectedBase64, candidate) { matched = true }
        if !matched {
            // Unpadded or URL-safe base64 still spells the same MAC.
            for candidate in candidates {
                if let received = try? Base64.decode(candidate.text(limit: 128)), ConstantTime.equals(expected, received) {
                    matched = true
                }
            }
        }
        guard matched else { throw .noMatch(signatureHeader) }
        return (String(decoding: id, as: UTF8.self), timestamp)
    }
}
