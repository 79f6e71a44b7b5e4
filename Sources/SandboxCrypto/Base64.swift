import Foundation

/// Base64 encoding in the standard alphabet (Standard Webhooks signatures and secrets) and
/// the URL-safe one (tokens that travel in URLs and QR codes).
///
/// ```swift
/// let signature = "v1," + Base64.encode(mac)
/// let token = Base64.encode(SecureRandom.bytes(count: 16), urlSafe: true)  // no "+/="
/// let secret = try Base64.decode("c2VjcmV0")
/// ```
public enum Base64 {
    /// `bytes` in base64.
    ///
    /// - Parameters:
    ///   - bytes: Any bytes.
    ///   - urlSafe: `false` (default) for RFC 4648 §4 with `=` padding; `true` for the
    ///     URL-safe alphabet of §5 (`-` and `_`) without padding.
    /// - Returns: The encoded text.
    public static func encode(_ bytes: some DataProtocol, urlSafe: Bool = false) -> String {
        let standard = Data(bytes).base64EncodedString()
        guard urlSafe else { return standard }
        var characters = Array(standard.utf8)
        while characters.last == UInt8(ascii: "=") { characters.removeLast() }
        for index in characters.indices {
            switch characters[index] {
            case UInt8(ascii: "+"): characters[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): characters[index] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// The bytes of a base64 string in either alphabet, padded or not.
    ///
    /// - Parameter string: Base64 text; whitespace and characters outside the alphabets are refused.
    /// - Returns: The decoded bytes.
    /// - Throws: ``CryptoError/invalidBase64`` when `string` is not base64.
    public static func decode(_ string: some StringProtocol) throws -> [UInt8] {
        Array(try decodeData(string))
    }

    /// The bytes of a base64 string in either alphabet, padded or not, as `Data`.
    ///
    /// - Parameter string: Base64 text.
    /// - Returns: The decoded bytes.
    /// - Throws: ``CryptoError/invalidBase64`` when `string` is not base64.
    public static func decodeData(_ string: some StringProtocol) throws -> Data {
        var characters = Array(string.utf8)
        for index in characters.indices {
            switch characters[index] {
            case UInt8(ascii: "-"): characters[index] = UInt8(ascii: "+")
            case UInt8(ascii: "_"): characters[index] = UInt8(ascii: "/")
            default: break
            }
        }
        // Restore the padding the URL-safe form drops; a remainder of 1 can never be valid.
        switch characters.count % 4 {
        case 2: characters += Array("==".utf8)
        case 3: characters += Array("=".utf8)
        case 1: throw CryptoError.invalidBase64
        default: break
        }
        guard let data = Data(base64Encoded: Data(characters)) else { throw CryptoError.invalidBase64 }
        return data
    }
}
