import Foundation

/// Amounts as the SDK takes them: integers in minor units (12.50 EUR is 1250).
enum Money {
    /// The minor units of an amount typed as `12`, `12.5` or `12,50`; nil for anything else or 0.
    static func minorUnits(from text: String) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
            .split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            (1...7).contains(parts[0].count), let units = Int(parts[0])
        else { return nil }
        var cents = 0
        if parts.count == 2 {
            guard (1...2).contains(parts[1].count), let fraction = Int(parts[1]) else { return nil }
            cents = parts[1].count == 1 ? fraction * 10 : fraction
        }
        let total = units * 100 + cents
        return total > 0 ? total : nil
    }

    /// `12,50 €` (in the phone's locale).
    static func text(_ minorUnits: Int, currency: String) -> String {
        (Decimal(minorUnits) / 100).formatted(.currency(code: currency))
    }
}
