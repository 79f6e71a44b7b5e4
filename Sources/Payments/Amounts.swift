import Foundation

/// A currency of the Payments SDK, with its minor-unit exponent.
public struct Currency: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// ISO 4217 code.
    public let code: String
    /// Digits after the decimal point (ARS 2, CLP 0).
    public let exponent: Int

    public init(code: String, exponent: Int) {
        self.code = code
        self.exponent = exponent
    }

    public static let ars = Currency(code: "ARS", exponent: 2)
    public static let brl = Currency(code: "BRL", exponent: 2)
    public static let clp = Currency(code: "CLP", exponent: 0)
    public static let eur = Currency(code: "EUR", exponent: 2)
    public static let uyu = Currency(code: "UYU", exponent: 2)
    public static let usd = Currency(code: "USD", exponent: 2)

    public var description: String { code }
}

/// An amount of a currency, in major units (`Money(amount: 100, currency: .ars)` is ARS 100,00).
public struct Money: Sendable, Equatable, Hashable, CustomStringConvertible {
    public let amount: Decimal
    public let currency: Currency
    /// The amount in minor units (centavos), as the host counts it.
    public let minorUnits: Int

    /// - Throws: ``MoneyError/invalidAmount(_:)`` for a negative amount, one with more decimals
    ///   than the currency has, or one beyond 10¹³ minor units.
    public init(amount: Decimal, currency: Currency) throws {
        var scaled = amount
        for _ in 0..<currency.exponent { scaled *= 10 }
        var rounded = Decimal()
        var copy = scaled
        NSDecimalRound(&rounded, &copy, 0, .plain)
        guard !amount.isNaN, amount >= 0, rounded == scaled, rounded < Decimal(10_000_000_000_000) else {
            throw MoneyError.invalidAmount("\(amount) \(currency.code)")
        }
        self.amount = amount
        self.currency = currency
        minorUnits = NSDecimalNumber(decimal: rounded).intValue
    }

    public var description: String { "\(amount) \(currency.code)" }
}

/// Why a ``Money`` could not be made.
public enum MoneyError: Error, Sendable, Equatable {
    case invalidAmount(String)
}

/// What a transaction collects.
public struct TransactionTotal: Sendable, Equatable, Hashable {
    public let gross: Money

    public init(gross: Money) {
        self.gross = gross
    }
}

/// How a reader may read the card. Apple's Tap to Pay reads contactless only (`.nfc`).
public enum ReadMode: String, Sendable, Equatable, Hashable, CaseIterable {
    case swipe
    case chip
    case nfc
}

/// The read the listener asks for in ``SDKTransactionState/provideReadConfig(provideReadConfigCallback:)``.
///
/// On Tap to Pay, `timeout` is not used: Apple's card screen lasts 40 s, then offers Try Again
/// (``TransactionError/cardReadTimeout``).
public struct ReadConfig: Sendable, Equatable, Hashable {
    public let readModes: [ReadMode]
    public let timeout: TimeInterval
    public let transactionTotal: TransactionTotal

    public init(readModes: [ReadMode], timeout: TimeInterval, transactionTotal: TransactionTotal) {
        self.readModes = readModes
        self.timeout = timeout
        self.transactionTotal = transactionTotal
    }
}
