
/// Cryptographically secure random bytes: OpenSSL's `RAND_bytes` on Linux, the Security framework's
/// `SecRandomCopyBytes` on Apple platforms.
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
    /// The call traps if the generator cannot be seeded, as Swift's
    /// `SystemRandomNumberGenerator` does: continuing without randomness would hand out
    /// predictable keys and nonces.
    ///
    /// - Parameter count: How many bytes; zero or more.
    /// - Returns: `count` bytes from the operating system's CSPRNG.
    public static func bytes(count: Int) -> [UInt8] {
        precondition(count >= 0, "SecureRandom.bytes(count:) needs a non-negative count")
        return engineBytes(count: count)
    }
}
