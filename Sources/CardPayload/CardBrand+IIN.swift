extension CardBrand {
    /// Why `pan` cannot be a card of this scheme (its issuer identification number range or its
    /// length), or `nil` when it can.
    ///
    /// The host refuses a read whose brand and PAN disagree (`brand_mismatch`); `cards.json`
    /// refuses such a card unless it is flagged `malformed`.
    ///
    /// ```swift
    /// CardBrand.visa.panMismatch("4761730000000011")   // nil
    /// CardBrand.amex.panMismatch("4761730000000011")   // "an AMEX PAN starts with 34 or 37"
    /// ```
    ///
    /// - Parameter pan: A PAN of 12 to 19 digits.
    /// - Returns: The scheme's rule that `pan` breaks, in words.
    public func panMismatch(_ pan: String) -> String? {
        func prefix(_ count: Int) -> Int { Int(pan.prefix(count)) ?? -1 }
        let length = pan.utf8.count
        switch self {
        case .visa:
            guard pan.hasPrefix("4") else { return "a VISA PAN starts with 4" }
            guard [13, 16, 19].contains(length) else { return "a VISA PAN has 13, 16 or 19 digits" }
        case .mastercard:
            guard (51...55).contains(prefix(2)) || (2221...2720).contains(prefix(4)) else {
                return "a MASTERCARD PAN starts with 51-55 or 2221-2720"
            }
            guard length == 16 else { return "a MASTERCARD PAN has 16 digits" }
        case .maestro:
            guard prefix(2) == 50 || (56...69).contains(prefix(2)) else { return "a MAESTRO PAN starts with 50 or 56-69" }
        case .amex:
            guard [34, 37].contains(prefix(2)) else { return "an AMEX PAN starts with 34 or 37" }
            guard length == 15 else { return "an AMEX PAN has 15 digits" }
        case .discover:
            guard pan.hasPrefix("6011") || pan.hasPrefix("65") || (644...649).contains(prefix(3)) else {
                return "a DISCOVER PAN starts with 6011, 644-649 or 65"
            }
            guard length >= 16 else { return "a DISCOVER PAN has 16 to 19 digits" }
        case .jcb:
            guard (3528...3589).contains(prefix(4)) else { return "a JCB PAN starts with 3528-3589" }
            guard length >= 16 else { return "a JCB PAN has 16 to 19 digits" }
        case .unionPay:
            guard pan.hasPrefix("62") else { return "a UNIONPAY PAN starts with 62" }
            guard length >= 16 else { return "a UNIONPAY PAN has 16 to 19 digits" }
        case .eftpos:
            // eftpos cards are often co-badged, so any prefix; the sandbox's are 16 digits.
            guard length == 16 else { return "an EFTPOS PAN has 16 digits" }
        }
        return nil
    }
}
