import Foundation

/// Lowercase hexadecimal encoding of bytes, as used in `MONEI-Signature: v1=<hex>` headers,
/// digests and test vectors.
///
/// ```swift
/// Hex.encode([0xde, 0xad, 0xbe, 0xef])  // "deadbeef"
/// try Hex.decode("DEADbeef")            // [0xde, 0xad, 0xbe, 0xef]
/// ```
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hexadecimal, two characters per byte.
    ///
    /// - Parameter bytes: Any bytes (`[UInt8]`, `Data`, a slice).
    /// - Returns: A string of `2 × count` characters from `0-9a-f`.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var characters: [UInt8] = []
        characters.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            characters.append(digits[Int(byte >> 4)])
            characters.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// The bytes spelled by a hexadecimal string.
    ///
    /// Upper- and lowercase digits are both accepted; nothing else is (no `0x`, no spaces),
    /// so a malformed signature header is refused instead of half-read.
    ///
    /// - Parameter string: An even number of characters from `0-9a-fA-F`.
    /// - Returns: The decoded bytes.
    /// - Throws: ``CryptoError/invalidHex`` for an odd length or any other character.
    public static func decode(_ string: some StringProtocol) throws -> [UInt8] {
        let characters = Array(string.utf8)
        guard characters.count.isMultiple(of: 2) else { throw CryptoError.invalidHex }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = value(of: characters[index]), let low = value(of: characters[index + 1]) else {
                throw CryptoError.invalidHex
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// The bytes spelled by a hexadecimal string, as `Data`.
    ///
    /// - Parameter string: An even number of characters from `0-9a-fA-F`.
    /// - Returns: The decoded bytes.
    /// - Throws: ``CryptoError/invalidHex`` for an odd length or any other character.
    public static func decodeData(_ string: some StringProtocol) throws -> Data {
        Data(try decode(string))
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
