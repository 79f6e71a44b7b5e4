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
        let mac = id.withUTF8Bytes { id in
            body.withUnsafeBufferPointer { body in
                HMACSHA256.Key(key).authenticate { message in
                    SignedMessage.standard(id: id, timestamp: timestamp, body: body, into: &message)
                }
            }
        }
        return "v1," + Base64.encode(mac.bytes)
    }

    /// Checks the three headers against the body; returns the message id and the signed timestamp.
    static func verify(
        headers: [String: String], body: UnsafeBufferPointer<UInt8>, key: HMACSHA256.Key
    ) throws(WebhookVerificationError) -> (id: String, timestamp: Int) {
        guard let id = try HeaderLookup.value(idHeader, in: headers) else { throw .missing(idHeader) }
        guard let timestampText = try HeaderLookup.value(timestampHeader, in: headers) else {
            throw .missing(timestampHeader)
        }
        guard let signatures = try HeaderLookup.value(signatureHeader, in: headers) else {
            throw .missing(signatureHeader)
        }
        let timestamp = try timestampText.withUTF8Bytes { (bytes) throws(WebhookVerificationError) -> Int in
            guard let timestamp = UnixTimestamp.parse(HeaderLookup.trim(bytes)) else {
                throw .malformed(timestampHeader, "it must be whole Unix seconds")
            }
            return timestamp
        }
        try signatures.withUTF8Bytes { (bytes) throws(WebhookVerificationError) in
            let signatures = HeaderLookup.trim(bytes)
            let expected = id.withUTF8Bytes { id in
                key.authenticate { message in
                    SignedMessage.standard(id: HeaderLookup.trim(id), timestamp: timestamp, body: body, into: &message)
                }
            }
            guard try matches(expected, signatures) else { throw .noMatch(signatureHeader) }
        }
        return (HeaderLookup.trim(id), timestamp)
    }

    /// The entries of the list, and where their `,` is (nil when there is none or it comes first).
    private static func entries<Failure: Error>(
        _ signatures: UnsafeBufferPointer<UInt8>, _ body: (_ entry: UnsafeBufferPointer<UInt8>, _ comma: Int?) throws(Failure) -> Void
    ) throws(Failure) {
        var entries = HeaderEntries(signatures, separatedBy: .blanks)
        while let entry = entries.next() {
            let comma = entry.firstIndex(of: UInt8(ascii: ","))
            try body(entry, comma == 0 ? nil : comma)
        }
    }

    /// Whether any `v1` entry of the list is `expected`, in one pass that also refuses a malformed
    /// list and one without a `v1` entry (a downgrade).
    private static func matches(
        _ expected: HMACSHA256.AuthenticationCode, _ signatures: UnsafeBufferPointer<UInt8>
    ) throws(WebhookVerificationError) -> Bool {
        // Every candidate is compared, so the time taken does not tell which one matched.
        var candidates = 0
        var malformed: UnsafeBufferPointer<UInt8>?
        var matched = MACEncoding.withBase64(expected) { expectedBase64 in
            var matched = false
            entries(signatures) { entry, comma in
                guard let comma else {
                    if malformed == nil { malformed = entry }
                    return
                }
                guard entry.prefix(before: comma).spells("v1") else { return }
                candidates += 1
                if ConstantTime.equals(expectedBase64, UnsafeRawBufferPointer(entry.suffix(after: comma))) { matched = true }
            }
            return matched
        }
        if let malformed { throw .malformed(signatureHeader, "'\(malformed.text())' is not <version>,<signature>") }
        if candidates == 0 {
            var otherVersions: [String] = []
            entries(signatures) { entry, comma in
                guard let comma else { return }
                let name = entry.prefix(before: comma).text() + ","
                if !otherVersions.contains(name) { otherVersions.append(name) }
            }
            throw .downgrade(signatureHeader, offered: otherVersions)
        }
        if !matched {
            // Unpadded or URL-safe base64 still spells the same MAC.
            entries(signatures) { entry, comma in
                if let comma, entry.prefix(before: comma).spells("v1"),
                    let received = try? Base64.decode(entry.suffix(after: comma).text(limit: 128)),
                    expected.withUnsafeBytes({ ConstantTime.equals($0, received) })
                {
                    matched = true
                }
            }
        }
        return matched
    }
}
