/// The one shape of an identifier that crosses a path or a log: 1 to 64 letters, digits, `.`,
/// `_` or `-` (terminal, merchant and device ids, request ids, registration tokens).
///
/// ```swift
/// PlainIdentifier.isValid("EU-T0101")   // true
/// PlainIdentifier.isValid("../x")       // false
/// ```
public enum PlainIdentifier {
    public static func isValid(_ value: String) -> Bool {
        (1...64).contains(value.utf8.count) && value.utf8.allSatisfy(isPlain)
    }

    static func isPlain(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
            || byte == 0x2E || byte == 0x5F
    }
}
