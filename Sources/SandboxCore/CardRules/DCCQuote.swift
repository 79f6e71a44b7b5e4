import Foundation

/// A Dynamic Currency Conversion offer: what the cardholder would pay in their card's currency.
///
/// `exchangeRate` is the base rate from `fx.json`, **without** the markup, and `markupPercent`
/// the markup on top of it in percent; they become `dccExchangeRate` and `dccMarkup` of the
/// transaction. The amount is therefore
///
/// ```text
/// amount = terminal amount × exchangeRate × (1 + markupPercent / 100), in the card currency's
///          minor units, rounded half up
/// 10.00 EUR → USD at 1.0842 + 3.5 %: 1000 × 1.0842 × 1.035 = 1122.147 → 1122 (11.22 USD)
/// 10.00 EUR → JPY at 162.31 + 3.5 %: 10 × 162.31 × 1.035 = 1679.9085 → 1680 JPY (exponent 0)
/// ```
public struct DCCQuote: Sendable, Equatable {
    /// The converted amount in minor units of ``currency``.
    public var amount: Int
    /// The card's currency.
    public var currency: Currency
    /// Card-currency units per terminal-currency unit, before the markup.
    public var exchangeRate: Decimal
    /// The markup over ``exchangeRate``, in percent (3.5 means 3.5 %).
    public var markupPercent: Decimal
    /// Whether the receipt shows the markup over the European Central Bank's reference rate.
    public var ecbIndicator: Bool

    public init(amount: Int, currency: Currency, exchangeRate: Decimal, markupPercent: Decimal, ecbIndicator: Bool) {
        self.amount = amount
        self.currency = currency
        self.exchangeRate = exchangeRate
        self.markupPercent = markupPercent
        self.ecbIndicator = ecbIndicator
    }

    /// The rate the cardholder actually pays: ``exchangeRate`` × (1 + ``markupPercent`` / 100).
    public var rateIncludingMarkup: Decimal {
        exchangeRate * (100 + markupPercent) / 100
    }

    /// ``exchangeRate`` as the wire's `Double` (`dccExchangeRate`), the shortest one that reads back as the rate.
    public var exchangeRateValue: Double { Self.double(exchangeRate) }

    /// ``markupPercent`` as the wire's `Double` (`dccMarkup`).
    public var markupPercentValue: Double { Self.double(markupPercent) }

    /// Through the decimal text, so 1.0842 stays 1.0842 rather than a binary neighbour.
    private static func double(_ value: Decimal) -> Double {
        Double(value.description) ?? NSDecimalNumber(decimal: value).doubleValue
    }
}
