/// The Luhn (mod 10) check every card number carries in its last digit.
///
/// ```swift
/// Luhn.isValid("4761730000000011")   // true
/// Luhn.checkDigit(for: "476173000000001")   // 1
/// ```
public enum Luhn {
    /// Whether `number` is all digits and passes the Luhn check.
    ///
    /// - Parameter number: The full number, check digit last.
    /// - Returns: `false` for an empty string or any non-digit.
    public static func isValid(_ number: String) -> Bool {
        guard let digits = digits(of: number), !digits.isEmpty else { return false }
        return sum(digits, doublingFirst: false) % 10 == 0
    }

    /// The check digit to append to `partial`.
    ///
    /// - Parameter partial: The number without its check digit.
    /// - Returns: 0…9, or `nil` when `partial` is empty or not all digits.
    public static func checkDigit(for partial: String) -> Int? {
        guard let digits = digits(of: partial), !digits.isEmpty else { return nil }
        return (10 - sum(digits, doublingFirst: true) % 10) % 10
    }

    private static func digits(of text: String) -> [Int]? {
        var digits: [Int] = []
        for byte in text.utf8 {
            guard (0x30...0x39).contains(byte) else { return nil }
            digits.append(Int(byte - 0x30))
        }
        return digits
    }

    /// Sums from the right, doubling every second digit (or every first, for a partial
    /// number that still lacks its check digit).
    private static func sum(_ digits: [Int], doublingFirst: Bool) -> Int {
        var total = 0
        for (offset, digit) in digits.reversed().enumerated() {
            let doubled = (offset % 2 == 0) == doublingFirst
            let value = doubled ? digit * 2 : digit
            total += value > 9 ? value - 9 : value
        }
        return total
    }
}
