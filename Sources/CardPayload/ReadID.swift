import SandboxCrypto

/// The `readId` of a sealed payload: 16 random bytes as 32 lowercase hex characters.
///
/// ```swift
/// let readId = ReadID.make(random: random)   // "9f86d081884c7d659a2feaa0c55ad015"
/// ReadID.isValid(readId)                     // true
/// ```
public enum ReadID {
    /// A fresh identifier.
    ///
    /// - Parameter random: Where the 16 bytes come from; a seeded source in tests.
    /// - Returns: 32 lowercase hex characters.
    public static func make(random: any RandomSource) -> String {
        Hex.encode(random.bytes(count: 16))
    }

    /// Whether `text` has the shape of a `readId`.
    ///
    /// - Parameter text: The candidate.
    /// - Returns: `true` for exactly 32 characters from `0-9a-f`.
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == 32
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
