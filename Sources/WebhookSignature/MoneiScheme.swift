import SandboxCrypto

/// `MONEI-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(key, "<t>.<body>")>`.
///
/// The key is the UTF-8 bytes of the merchant's API key. Stripe's `Stripe-Signature` header is
/// the same construction, so a Stripe verifier accepts this header's value and vice versa.
/// Several `v1=` entries may appear (the sender signs with an old and a new key while a key
/// rotates); entries of any other scheme (`v0=`) are ignored.
enum MoneiScheme {
    static let headerName = "MONEI-Signature"
    static let lookupName = "monei-signature"

    static func headerValue(timestamp: Int, body: [UInt8], key: [UInt8]) -> String {
        let mac = body.withUnsafeBufferPointer { body in
            HMACSHA256.Key(key).authenticate { message in SignedMessage.monei(timestamp: timestamp, body: body, into: &message) }
        }
        return "t=\(timestamp),v1=" + Hex.encode(mac.bytes)
    }

    /// Checks the header against the body; returns the signed timestamp for the tolerance check.
    static func verify(
        headers: [String: String], body: UnsafeBufferPointer<UInt8>, key: HMACSHA256.Key
    ) throws(WebhookVerificationError) -> Int {
        guard let header = try HeaderLookup.value(lookupName, in: headers) else { throw .missing(headerName) }
        return try header.withUTF8Bytes { (bytes) throws(WebhookVerificationError) -> Int in
            try verify(header: HeaderLookup.trim(bytes), body: body, key: key)
        }
    }

    private static func verify(
        header: UnsafeBufferPointer<UInt8>, body: UnsafeBufferPointer<UInt8>, key: HMACSHA256.Key
    ) throws(WebhookVerificationError) -> Int {
        // First pass: the whole header must be well formed before any MAC is computed.
        var timestamp: Int?
        var candidates = 0
        var otherSchemes = false
        try entries(header) { (entry, equals) throws(WebhookVerificationError) in
            guard let equals else { throw .malformed(headerName, "'\(entry.text())' is not key=value") }
            let name = entry.prefix(before: equals)
            if name.spells("t") {
                guard timestamp == nil else { throw .malformed(headerName, "t= is given twice") }
                guard let parsed = UnixTimestamp.parse(entry.suffix(after: equals)) else {
                    throw .malformed(headerName, "t= must be whole Unix seconds")
                }
                timestamp = parsed
            } else if name.spells("v1") {
                candidates += 1
            } else {
                otherSchemes = true
            }
        }
        guard let timestamp else { throw .malformed(headerName, "there is no t= timestamp") }
        if candidates == 0 {
            if !otherSchemes { throw .malformed(headerName, "there is no signature") }
            throw .downgrade(headerName, offered: schemes(in: header))
        }

        let expected = key.authenticate { message in SignedMessage.monei(timestamp: timestamp, body: body, into: &message) }
        guard matches(expected, header) else { throw .noMatch(headerName) }
        return timestamp
    }

    /// The trimmed entries of the header, and where their `=` is (nil when there is none or it comes first).
    private static func entries<Failure: Error>(
        _ header: UnsafeBufferPointer<UInt8>, _ body: (_ entry: UnsafeBufferPointer<UInt8>, _ equals: Int?) throws(Failure) -> Void
    ) throws(Failure) {
        var entries = HeaderEntries(header, separatedBy: .comma)
        while let item = entries.next() {
            let entry = HeaderLookup.trim(item)
            let equals = entry.firstIndex(of: UInt8(ascii: "="))
            try body(entry, equals == 0 ? nil : equals)
        }
    }

    /// Whether any `v1=` entry of a well-formed header is `expected`.
    private static func matches(_ expected: HMACSHA256.AuthenticationCode, _ header: UnsafeBufferPointer<UInt8>) -> Bool {
        // Every candidate is compared, so the time taken does not tell which one matched.
        var matched = MACEncoding.withHex(expected) { expectedHex in
            var matched = false
            entries(header) { entry, equals in
                if let equals, entry.prefix(before: equals).spells("v1"),
                    ConstantTime.equals(expectedHex, UnsafeRawBufferPointer(entry.suffix(after: equals)))
                {
                    matched = true
                }
            }
            return matched
        }
        if !matched {
            // Hex in uppercase (or mixed case) still spells the same MAC.
            entries(header) { entry, equals in
                if let equals, entry.prefix(before: equals).spells("v1"),
                    let received = try? Hex.decode(entry.suffix(after: equals).text(limit: 128)),
                    expected.withUnsafeBytes({ ConstantTime.equals($0, received) })
                {
                    matched = true
                }
            }
        }
        return matched
    }

    /// For the downgrade message: the other schemes offered (`v0=`), each once, in order.
    private static func schemes(in header: UnsafeBufferPointer<UInt8>) -> [String] {
        var schemes: [String] = []
        entries(header) { entry, equals in
            guard let equals else { return }
            let name = entry.prefix(before: equals)
            guard !name.spells("t"), !name.spells("v1") else { return }
            let scheme = name.text() + "="
            if !schemes.contains(scheme) { schemes.append(scheme) }
        }
        return schemes
    }
}
