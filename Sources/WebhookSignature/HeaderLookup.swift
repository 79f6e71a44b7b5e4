/// Header lookup by case-insensitive name, as HTTP says names compare.
enum HeaderLookup {
    /// The bytes of header `name` (given in lowercase) in `headers`, without surrounding spaces
    /// and tabs; nil when absent or empty.
    ///
    /// The lowercase spelling (what most servers hand over) is looked up directly; otherwise every
    /// key is compared case-insensitively.
    ///
    /// - Throws: ``WebhookVerificationError/malformedHeader`` when, without a lowercase key, two
    ///   keys differing only in case both hold a value: which one the sender meant cannot be known.
    static func value(_ name: String, in headers: [String: String]) throws(WebhookVerificationError) -> ArraySlice<UInt8>? {
        var found = headers[name]
        if found == nil {
            for (key, value) in headers where key.utf8.count == name.utf8.count && equalIgnoringASCIICase(key, name) {
                guard found == nil else { throw .malformed(name, "it is given twice") }
                found = value
            }
        }
        guard let found else { return nil }
        let trimmed = trim(Array(found.utf8)[...])
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `bytes` without leading and trailing spaces and tabs.
    static func trim(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else {
            return bytes[bytes.endIndex...]
        }
        return bytes[first...last]
    }

    private static func equalIgnoringASCIICase(_ lhs: String, _ rhs: String) -> Bool {
        zip(lhs.utf8, rhs.utf8).allSatisfy { lower($0) == lower($1) }
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }
}
