/// Fast, allocation-light encodings of a 32-byte MAC, for comparing with what a header carries.
///
/// A verifier encodes the MAC it expects and compares text with text in constant time; only a
/// header that does not match byte for byte (uppercase hex, unpadded or URL-safe base64) is
/// decoded with SandboxCrypto's general decoders and compared again.
enum MACEncoding {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    private static let base64Alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Lowercase hexadecimal ASCII bytes.
    static func hex(_ bytes: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: bytes.count * 2)
        output.withUnsafeMutableBufferPointer { out in
            hexDigits.withUnsafeBufferPointer { digits in
                for (index, byte) in bytes.enumerated() {
                    out[2 * index] = digits[Int(byte >> 4)]
                    out[2 * index + 1] = digits[Int(byte & 0x0F)]
                }
            }
        }
        return output
    }

    /// Standard base64 (RFC 4648 §4) with `=` padding, as ASCII bytes.
    static func base64(_ bytes: [UInt8]) -> [UInt8] {
        let length = (bytes.count + 2) / 3 * 4
        return [UInt8](unsafeUninitializedCapacity: length) { output, initialized in
            base64Alphabet.withUnsafeBufferPointer { alphabet in
                bytes.withUnsafeBufferPointer { input in
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
                }
            }
            initialized = length
        }
    }
}
