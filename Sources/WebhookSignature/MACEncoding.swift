import SandboxCrypto

/// Encodings of a 32-byte MAC into a stack buffer, for comparing with what a header carries.
///
/// A verifier encodes the MAC it expects and compares text with text in constant time; only a
/// header that does not match byte for byte (uppercase hex, unpadded or URL-safe base64) is
/// decoded with SandboxCrypto's general decoders and compared again.
enum MACEncoding {
    private static let hexDigits: StaticString = "0123456789abcdef"
    private static let base64Alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    /// Calls `body` with `code` in lowercase hexadecimal ASCII (64 bytes).
    static func withHex<Result>(_ code: HMACSHA256.AuthenticationCode, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        code.withUnsafeBytes { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count * 2) { output in
                let digits = hexDigits.utf8Start
                for (index, byte) in bytes.enumerated() {
                    output[2 * index] = digits[Int(byte >> 4)]
                    output[2 * index + 1] = digits[Int(byte & 0x0F)]
                }
                return body(UnsafeRawBufferPointer(output))
            }
        }
    }

    /// Calls `body` with `code` in standard base64 (RFC 4648 §4) with `=` padding, as ASCII (44 bytes).
    static func withBase64<Result>(_ code: HMACSHA256.AuthenticationCode, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        code.withUnsafeBytes { input in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: (input.count + 2) / 3 * 4) { output in
                let alphabet = base64Alphabet.utf8Start
                var index = 0, written = 0
                while index < input.count {
                    let rest = input.count - index
                    let value = UInt32(input[index]) << 16 | (rest > 1 ? UInt32(input[index + 1]) << 8 : 0)
                        | (rest > 2 ? UInt32(input[index + 2]) : 0)
                    output[written] = alphabet[Int(value >> 18 & 63)]
                    output[written + 1] = alphabet[Int(value >> 12 & 63)]
                    output[written + 2] = rest > 1 ? alphabet[Int(value >> 6 & 63)] : UInt8(ascii: "=")
                    output[written + 3] = rest > 2 ? alphabet[Int(value & 63)] : UInt8(ascii: "=")
                    index += 3
                    written += 4
                }
                return body(UnsafeRawBufferPointer(output))
            }
        }
    }
}
