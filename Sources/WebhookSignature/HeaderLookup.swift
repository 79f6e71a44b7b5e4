/// Header lookup by case-insensitive name, as HTTP says names compare.
enum HeaderLookup {
    /// The value of header `name` (given in lowercase) in `headers`; nil when absent or only
    /// spaces and tabs. The value is returned as stored: ``trim(_:)`` its bytes.
    ///
    /// The lowercase spelling (what most servers hand over) is looked up directly; otherwise every
    /// key is compared case-insensitively.
    ///
    /// - Throws: ``WebhookVerificationError/malformedHeader`` when, without a lowercase key, two
    ///   keys differing only in case both hold a value: which one the sender meant cannot be known.
    static func value(_ name: String, in headers: [String: String]) throws(WebhookVerificationError) -> String? {
        var found = headers[name]
        if found == nil {
            for (key, value) in headers where key.utf8.count == name.utf8.count && equalIgnoringASCIICase(key, name) {
                guard found == nil else { throw .malformed(name, "it is given twice") }
                found = value
            }
        }
        guard let found, found.utf8.contains(where: { !isBlank($0) }) else { return nil }
        return found
    }

    /// `bytes` without leading and trailing spaces and tabs.
    static func trim(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0, end = bytes.count
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// `value` without leading and trailing spaces and tabs; the same string when there are none.
    static func trim(_ value: String) -> String {
        guard let first = value.utf8.first, let last = value.utf8.last, isBlank(first) || isBlank(last) else { return value }
        return value.withUTF8Bytes { String(decoding: trim($0), as: UTF8.self) }
    }

    static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func equalIgnoringASCIICase(_ lhs: String, _ rhs: String) -> Bool {
        zip(lhs.utf8, rhs.utf8).allSatisfy { lower($0) == lower($1) }
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }
}

extension String {
    /// Calls `body` with the UTF-8 bytes of the string: its own storage when it has contiguous
    /// UTF-8 (every native and small string), a copy otherwise.
    func withUTF8Bytes<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let direct = utf8.withContiguousStorageIfAvailable { bytes in
            Swift.Result { () throws(Failure) in try body(bytes) }
        }
        if let direct { return try direct.get() }
        return try Array(utf8).withUnsafeBufferPointer { bytes in
            Swift.Result { () throws(Failure) in try body(bytes) }
        }.get()
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The bytes before position `index`.
    func prefix(before index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self[..<index])
    }

    /// The bytes after position `index`.
    func suffix(after index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self[(index + 1)...])
    }

    /// Whether the bytes spell `ascii` (a short ASCII literal such as `"v1"`).
    func spells(_ ascii: StaticString) -> Bool {
        guard count == ascii.utf8CodeUnitCount else { return false }
        let expected = ascii.utf8Start
        for index in 0..<count where self[index] != expected[index] { return false }
        return true
    }

    /// For messages: the bytes as text, cut to `limit` bytes.
    func text(limit: Int = 20) -> String {
        String(decoding: prefix(limit), as: UTF8.self)
    }
}
