/// Masks a card number for receipts, history and logs: the first six and last four digits
/// stay, every digit between becomes `*`.
///
/// ```swift
/// MaskedPAN.mask("4761730000000011")   // "476173******0011"
/// MaskedPAN.mask("378282246310005")    // "378282*****0005"
/// ```
public enum MaskedPAN {
    /// `pan` with its middle digits replaced by `*`.
    ///
    /// A text of 10 characters or fewer has no middle to hide behind six and four; the
    /// sandbox then shows only its last four characters (none when it has four or fewer),
    /// so the mask never reveals more than a real PAN's would.
    ///
    /// - Parameter pan: The full card number.
    /// - Returns: A string as long as `pan`.
    public static func mask(_ pan: String) -> String {
        // A PAN is digits: mask its bytes (one byte, one character). Other text goes by Character.
        let bytes = Array(pan.utf8)
        if bytes.count > 10, bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            var masked = bytes
            for index in 6..<(bytes.count - 4) { masked[index] = UInt8(ascii: "*") }
            return String(decoding: masked, as: UTF8.self)
        }
        let characters = Array(pan)
        guard characters.count > 10 else {
            let shown = characters.count > 4 ? 4 : 0
            return String(repeating: "*", count: characters.count - shown) + String(characters.suffix(shown))
        }
        return String(characters.prefix(6))
            + String(repeating: "*", count: characters.count - 10)
            + String(characters.suffix(4))
    }
}
