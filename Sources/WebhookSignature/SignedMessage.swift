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
