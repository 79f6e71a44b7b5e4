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
        let mac = HMACSHA256.authenticate(key: key, message: SignedMessage.monei(timestamp: timestamp, body: body))
        return "t=\(timestamp),v1=" + Hex.encode(mac)
    }

    /// Checks the header against the body; returns the signed timestamp for the tolerance check.
    static func verify(
        headers: [String: String], body: some Collection<UInt8>, key: HMACKey
    ) throws(WebhookVerificationError) -> Int {
        guard let header = try HeaderLookup.value(lookupName, in: headers) else { throw .missing(headerName) }
        var timestamp: Int?
        var candidates: [ArraySlice<UInt8>] = []
        var otherSchemes: [String] = []
        for item in header.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let entry = HeaderLookup.trim(item)
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")), equals != entry.startIndex else {
                throw .malformed(headerName, "'\(entry.text())' is not key=value")
            }
            let name = entry[..<equals]
            let value = entry[(equals + 1)...]
            if name.elementsEqual("t".utf8) {
                guard timestamp == nil else { throw .malformed(headerName, "t= is given twice") }
                guard let parsed = UnixTimestamp.parse(value) else {
                    throw .malformed(headerName, "t= must be whole Unix seconds")
                }
                timestamp = parsed
            } else if name.elementsEqual("v1".utf8) {
                candidates.append(value)
            } else {
                let scheme = name.text() + "="
                if !otherSchemes.contains(scheme) { otherSchemes.append(scheme) }
            }
        }
        guard let timestamp else { throw .malformed(headerName, "there is no t= timestamp") }
        if candidates.isEmpty {
            if otherSchemes.isEmpty { throw .malformed(headerName, "there is no signature") }
            throw .downgrade(headerName, offered: otherSchemes)
        }
        let expected = key.authenticate { block in SignedMessage.monei(timestamp: timestamp, body: body, after: block) }
        // Every candidate is compared, so the time taken does not tell which one matched.
        var matched = false
        let expectedHex = MACEncoding.hex(expected)
        for candidate in candidates where ConstantTime.equals(expectedHex, candidate) { matched = true }
        if !matched {
            // Hex in uppercase (or mixed case) still spells the same MAC.
            for candidate in candidates {
                if let received = try? Hex.decode(candidate.text(limit: 128)), ConstantTime.equals(expected, received) {
                    matched = true
                }
            }
        }
        guard matched else { throw .noMatch(headerName) }
        return timestamp
    }
}
