#if canImport(COpenSSL)
internal import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's `RAND_bytes`.
///
/// This is the one place in the sandbox where system randomness enters. Services do not call
/// it directly: they take a ``RandomSource`` and are given ``LiveRandomSource`` in production
/// and a ``SeededRandomSource`` in tests.
///
/// ```swift
/// let key = SecureRandom.bytes(count: 32)
/// ```
public enum SecureRandom {
    /// `count` random bytes.
    ///
    /// The call traps if OpenSSL's generator cannot be seeded, as Swift's
    /// `SystemRandomNumberGenerator` does: continuing without randomness would hand out
    /// predictable keys and nonces.
    ///
    /// - Parameter count: How many bytes; zero or more.
    /// - Returns: `count` bytes from the operating system's CSPRNG via OpenSSL.
    public static func bytes(count: Int) -> [UInt8] {
        precondition(count >= 0, "SecureRandom.bytes(count:) needs a non-negative count")
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBufferPointer { buffer in
            // RAND_bytes takes an `int` length, so fill very large requests in chunks.
            var offset = 0
            while offset < buffer.count {
                let chunk = min(buffer.count - offset, Int(Int32.max))
                let status = RAND_bytes(buffer.baseAddress! + offset, Int32(chunk))
                precondition(status == 1, "\(OpenSSL.lastError("RAND_bytes"))")
                offset += chunk
            }
        }
        return bytes
    }
}
#endif
