/// The bytes a scheme authenticates: an ASCII prefix (`"<t>."`, `"<id>.<t>."`) then the raw body.
///
/// The body is taken byte for byte, never decoded or re-encoded: a verifier that parsed and
/// re-serialised JSON would compute a different MAC than the sender.
struct SignedMessage {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ part: some Collection<UInt8>) {
        // One copy of contiguous storage ([UInt8], Data, slices, native strings) instead of a
        // byte-by-byte walk through an unspecialised generic collection.
        let copied: Void? = part.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
        if copied == nil { bytes.append(contentsOf: part) }
    }

    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// A non-negative integer in decimal, as `"\(value)"` spells it.
    mutating func append(decimal value: Int) {
        precondition(value >= 0)
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// `"<timestamp>." + body` (MONEI), optionally after a prefix block (an HMAC inner pad).
    static func monei(timestamp: Int, body: some Collection<UInt8>, after block: [UInt8] = []) -> [UInt8] {
        var message = SignedMessage(capacity: block.count + 21 + body.count)
        message.append(block)
        message.append(decimal: timestamp)
        message.append(UInt8(ascii: "."))
        message.append(body)
        return message.bytes
    }

    /// `"<id>.<timestamp>." + body` (Standard Webhooks), optionally after a prefix block.
    static func standard(
        id: some Collection<UInt8>, timestamp: Int, body: some Collection<UInt8>, after block: [UInt8] = []
    ) -> [UInt8] {
        var message = SignedMessage(capacity: block.count + id.count + 22 + body.count)
        message.append(block)
        message.append(id)
        message.append(UInt8(ascii: "."))
        message.append(decimal: timestamp)
        message.append(UInt8(ascii: "."))
        message.append(body)
        return message.bytes
    }
}

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

/// A Unix timestamp as senders write it: 1 to 18 ASCII digits, no sign, no fraction.
enum UnixTimestamp {
    static func parse(_ text: ArraySlice<UInt8>) -> Int? {
        guard (1...18).contains(text.count) else { return nil }
        var value = 0
        for byte in text {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

extension ArraySlice<UInt8> {
    /// For messages: the bytes as text, cut to `limit` characters.
    func text(limit: Int = 20) -> String {
        String(decoding: prefix(limit), as: UTF8.self)
    }
}
