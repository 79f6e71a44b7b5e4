import Foundation
import SandboxWire

/// The checks a sale or refund passes before the host makes a transaction of it
/// (docs/card-payments.md, "Rules"). Pure: the terminal, the request and, for refunds and
/// reversals, the original transaction are all they look at. A refused request leaves no
/// transaction behind.
///
/// ```swift
/// let sale = try PaymentRules.validateSale(
///     requestedAmount: 1250, tipAmount: 250, currency: "EUR", reference: nil, countryCode: "BE",
///     terminal: info)
/// sale.baseAmount   // 1000: what the magic amounts look at
/// ```
public enum PaymentRules {
    /// The longest reference, in characters.
    public static let maxReferenceLength = 50

    /// What a request that passed the checks asks for.
    public struct Amounts: Sendable, Equatable {
        /// The amount charged or refunded, tip included, in minor units.
        public var requestedAmount: Int
        /// The tip, or nil for none (a tip of 0 counts as none).
        public var tipAmount: Int?
        /// `requestedAmount` minus the tip: the amount magic amounts and tip caps look at.
        public var baseAmount: Int
        /// The terminal's currency.
        public var currency: Currency

        public init(requestedAmount: Int, tipAmount: Int?, baseAmount: Int, currency: Currency) {
            self.requestedAmount = requestedAmount
            self.tipAmount = tipAmount
            self.baseAmount = baseAmount
            self.currency = currency
        }
    }

    // MARK: - Sale

    /// Checks a sale, in this order: currency, amount, tip, reference, country.
    ///
    /// - Parameters:
    ///   - requestedAmount: the total in minor units, tip included: 1 … `terminal.limitAmount`.
    ///   - tipAmount: the tip in minor units, or nil; 0 is the same as nil.
    ///   - currency: the ISO 4217 code the request names; it must be the terminal's.
    ///   - reference: the merchant's reference, or nil.
    ///   - countryCode: where the device is (ISO 3166-1 alpha-2), or nil when unknown.
    ///   - terminal: the terminal as its device sees it.
    ///   - minimumAmount: the region's smallest sale (`limits.minTransactionAmount`), 1 by default.
    /// - Returns: the amounts, with the base amount (requested minus tip).
    /// - Throws: ``PaymentRuleError`` with the first problem: `invalid_currency`,
    ///   `currency_mismatch`, `invalid_amount`, `amount_below_minimum`, `amount_over_limit`,
    ///   `tips_not_allowed`, `tip_over_limit`, `invalid_reference` or `country_not_permitted`.
    public static func validateSale(
        requestedAmount: Int, tipAmount: Int?, currency: String, reference: String?, countryCode: String?,
        terminal: TerminalInfo, minimumAmount: Int = 1
    ) throws(PaymentRuleError) -> Amounts {
        let currency = try validateCurrency(currency, terminal: terminal)
        try validateAmount(requestedAmount, terminal: terminal, minimum: minimumAmount)
        let baseAmount = try validateTip(tipAmount, requestedAmount: requestedAmount, terminal: terminal)
        try validateReference(reference, terminal: terminal)
        try validateCountry(countryCode, terminal: terminal)
        let tip = tipAmount == 0 ? nil : tipAmount
        return Amounts(requestedAmount: requestedAmount, tipAmount: tip, baseAmount: baseAmount, currency: currency)
    }

    /// The currency a request names, when it is the terminal's.
    ///
    /// - Throws: `invalid_currency` for a code `Currency` does not know (case matters: `eur`
    ///   is refused), `currency_mismatch` for another currency than the terminal's.
    @discardableResult
    public static func validateCurrency(_ code: String, terminal: TerminalInfo) throws(PaymentRuleError) -> Currency {
        guard let currency = Currency(code: code) else {
            throw PaymentRuleError(
                .invalidCurrency, field: "currency", message: "\"\(code)\" is not an ISO 4217 currency code.")
        }
        guard currency.code == terminal.currency.code else {
            throw PaymentRuleError(
                .currencyMismatch, field: "currency",
                message: "This terminal takes \(terminal.currency.code), not \(currency.code).")
        }
        return currency
    }

    /// Checks a requested amount: at least 1 (and `minimum`) and at most the terminal's limit, tip included.
    ///
    /// - Throws: `invalid_amount` below 1, `amount_below_minimum` below `minimum`, `amount_over_limit`
    ///   above `terminal.limitAmount`.
    public static func validateAmount(_ amount: Int, terminal: TerminalInfo, minimum: Int = 1) throws(PaymentRuleError) {
        guard amount >= 1 else {
            throw PaymentRuleError(
                .invalidAmount, field: "requestedAmount", message: "requestedAmount must be at least 1 (minor units).")
        }
        guard amount >= minimum else {
            throw PaymentRuleError(
                .amountBelowMinimum, field: "requestedAmount",
                message: "requestedAmount \(amount) is below this region's smallest sale, \(minimum).")
        }
        guard amount <= terminal.limitAmount else {
            throw PaymentRuleError(
                .amountOverLimit, field: "requestedAmount",
                message: "requestedAmount \(amount) exceeds the terminal's limit \(terminal.limitAmount), tip included.")
        }
    }

    /// Checks a tip against a valid requested amount and returns the base amount.
    ///
    /// The tip must be below the requested amount (so the base is at least 1), at most
    /// `maxTipAmount`, and at most `maxTipPercentage` % of the base, compared exactly.
    ///
    /// - Returns: `requestedAmount` minus the tip.
    /// - Throws: `invalid_amount` for a negative tip, `tips_not_allowed` for a tip where tips
    ///   are off, `tip_over_limit` for a tip over any cap.
    @discardableResult
    public static func validateTip(
        _ tipAmount: Int?, requestedAmount: Int, terminal: TerminalInfo
    ) throws(PaymentRuleError) -> Int {
        guard let tip = tipAmount, tip != 0 else { return requestedAmount }
        guard tip > 0 else {
            throw PaymentRuleError(.invalidAmount, field: "tipAmount", message: "tipAmount must not be negative.")
        }
        guard terminal.tipEnabled else {
            throw PaymentRuleError(.tipsNotAllowed, field: "tipAmount", message: "This terminal does not take tips.")
        }
        guard tip < requestedAmount else {
            throw PaymentRuleError(
                .tipOverLimit, field: "tipAmount",
                message: "tipAmount \(tip) must be below requestedAmount \(requestedAmount), which includes it.")
        }
        if let maximum = terminal.maxTipAmount, tip > maximum {
            throw PaymentRuleError(
                .tipOverLimit, field: "tipAmount", message: "tipAmount \(tip) exceeds the terminal's maximum tip \(maximum).")
        }
        let base = requestedAmount - tip
        // Exact: tip × 100 ≤ base × percentage, in Decimal through the percentage's shortest text.
        if let percentage = terminal.maxTipPercentage,
           Decimal(tip) * 100 > Decimal(base) * (Decimal(string: "\(percentage)") ?? Decimal(percentage)) {
            throw PaymentRuleError(
                .tipOverLimit, field: "tipAmount",
                message: "tipAmount \(tip) exceeds \(percentText(percentage)) % of the base amount \(base).")
        }
        return base
    }

    /// Checks a merchant reference: 1 to 50 printable characters, matching the terminal's
    /// `referencePattern` as a whole when references are on and a pattern is set. nil passes.
    ///
    /// - Throws: `invalid_reference`.
    public static func validateReference(_ reference: String?, terminal: TerminalInfo) throws(PaymentRuleError) {
        guard let reference else { return }
        guard !reference.isEmpty else {
            throw PaymentRuleError(
                .invalidReference, field: "reference", message: "reference must not be empty; leave it out instead.")
        }
        guard reference.count <= maxReferenceLength else {
            throw PaymentRuleError(
                .invalidReference, field: "reference",
                message: "reference must be at most \(maxReferenceLength) characters, not \(reference.count).")
        }
        guard reference.unicodeScalars.allSatisfy(isPrintable) else {
            throw PaymentRuleError(
                .invalidReference, field: "reference", message: "reference must hold printable characters only.")
        }
        let properties = terminal.dynamicProperties
        guard properties.referenceEnabled, let pattern = properties.referencePattern else { return }
        guard matchesWhole(reference, pattern: pattern) else {
            throw PaymentRuleError(
                .invalidReference, field: "reference",
                message: "reference \"\(reference)\" does not match the terminal's pattern \(pattern).")
        }
    }

    /// Checks where the device is against the terminal's `permittedCountries` (letter case
    /// ignored). A terminal without the list trades anywhere, and a request without a country
    /// is not checked: the sandbox cannot tell where the device is.
    ///
    /// - Throws: `country_not_permitted`.
    public static func validateCountry(_ countryCode: String?, terminal: TerminalInfo) throws(PaymentRuleError) {
        guard let countryCode, let permitted = terminal.permittedCountries else { return }
        guard permitted.contains(countryCode.uppercased()) else {
            throw PaymentRuleError(
                .countryNotPermitted, field: "countryCode",
                message: "This terminal may not trade in \(countryCode) (permitted: \(permitted.joined(separator: ", "))).")
        }
    }

    // MARK: - Helpers

    /// Printable: no control characters (C0, DEL, C1), no line or paragraph separators, no
    /// unassigned or private-use code points.
    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate: false
        default: true
        }
    }

    /// Whether `pattern` matches all of `text`: `\A(?:pattern)\z`, so an alternation or a
    /// pattern without anchors cannot pass on a prefix. A pattern that does not compile
    /// matches nothing (the loader refuses such patterns).
    static func matchesWhole(_ text: String, pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: "\\A(?:\(pattern))\\z") else { return false }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, range: range) != nil
    }

    /// 15.0 → "15", 12.5 → "12.5".
    private static func percentText(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
