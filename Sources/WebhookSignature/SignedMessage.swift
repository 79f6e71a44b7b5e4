import SandboxCrypto

/// The bytes a scheme authenticates: an ASCII prefix (`"<t>."`, `"<id>.<t>."`) then the raw body,
/// fed to the HMAC piece by piece, so the signed string is never built in memory.
///
/// The body is taken byte for byte, never decoded or re-encoded: a verifier that parsed and
/// re-serialised JSON would compute a different MAC than the sender. The timestamp is spelled as
/// `"\(timestamp)"` does, as the reference libraries re-spell the integer they parsed.
/// The signer and the verifier both use these two functions.
enum SignedMessage {
    /// `"<timestamp>." + body` (MONEI).
    static func monei(timestamp: Int, body: UnsafeBufferPointer<UInt8>, into message: inout HMACSHA256.Message) {
        withPrefix(id: nil, timestamp: timestamp) { message.update($0) }
        message.update(body)
    }

    /// `"<id>.<timestamp>." + body` (Standard Webhooks).
    static func standard(
        id: UnsafeBufferPointer<UInt8>, timestamp: Int, body: UnsafeBufferPointer<UInt8>, into message: inout HMACSHA256.Message
    ) {
        withPrefix(id: id, timestamp: timestamp) { message.update($0) }
        message.update(body)
    }

    /// Calls `body` with `"<id>.<timestamp>."` (or `"<timestamp>."` without an id) in a stack
    /// buffer: one HMAC update for the whole prefix instead of one per piece.
    private static func withPrefix(
        id: UnsafeBufferPointer<UInt8>?, timestamp: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        precondition(timestamp >= 0, "a webhook timestamp is 0 or more")
        let idLength = id.map { $0.count + 1 } ?? 0
        // Int.max has 19 digits, then the dot.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: idLength + 20) { buffer in
            var end = buffer.count - 1
            buffer[end] = UInt8(ascii: ".")
            var rest = timestamp
            repeat {
                end -= 1
                buffer[end] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            var start = end
            if let id {
                start -= idLength
                _ = UnsafeMutableBufferPointer(rebasing: buffer[start..<(end - 1)]).initialize(from: id)
                buffer[end - 1] = UInt8(ascii: ".")
            }
            body(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }
}
