import Foundation

/// One row of `GET /terminal/v1/transactions`: the seed's `TransactionHistoryItems`.
///
/// `amount` is the transaction amount (tip included) and `amountRefund` what was refunded
/// of it, both in minor units of `currency`. Optional fields are written as `null`.
///
/// ```json
/// { "transactionId": "a1f0…", "transactionDate": "2026-11-29T12:48:22.555Z",
///   "transactionStatus": "REFUNDED", "amount": 1250, "transactionType": "AUTH",
///   "cardType": "VISA", "applicationLabel": "VISA DEBIT", "paymentMethod": "CARD",
///   "amountRefund": 1250,
///   "currency": { "code": "EUR", "name": "Euro", "unitLength": 2, "isoCode": 978, "exponent": 2 } }
/// ```
public struct TransactionHistoryItem: Codable, Sendable, Equatable, Hashable {
    public var transactionId: String
    public var transactionDate: Date
    public var transactionStatus: TransactionStatus
    public var amount: Int
    public var transactionType: TransactionType
    public var cardType: String?
    public var applicationLabel: String?
    public var paymentMethod: PaymentMethod
    /// How much of the sale was refunded.
    public var amountRefund: Int?
    public var currency: TerminalCurrency?

    public init(
        transactionId: String, transactionDate: Date, transactionStatus: TransactionStatus, amount: Int,
        transactionType: TransactionType, cardType: String? = nil, applicationLabel: String? = nil,
        paymentMethod: PaymentMethod, amountRefund: Int? = nil, currency: TerminalCurrency? = nil
    ) {
        self.transactionId = transactionId
        self.transactionDate = transactionDate
        self.transactionStatus = transactionStatus
        self.amount = amount
        self.transactionType = transactionType
        self.cardType = cardType
        self.applicationLabel = applicationLabel
        self.paymentMethod = paymentMethod
        self.amountRefund = amountRefund
        self.currency = currency
    }

    /// The history row of a transaction; `amountRefund` is what a later refund paid back, if any.
    public init(_ detail: TransactionDetail, amountRefund: Int? = nil) {
        self.init(
            transactionId: detail.transactionId, transactionDate: detail.transactionDate,
            transactionStatus: detail.transactionStatus, amount: detail.transactionAmount,
            transactionType: detail.transactionType, cardType: detail.cardType,
            applicationLabel: detail.applicationLabel, paymentMethod: detail.paymentMethod,
            amountRefund: amountRefund, currency: detail.currency)
    }

    public enum CodingKeys: String, CodingKey, CaseIterable {
        case transactionId, transactionDate, transactionStatus, amount, transactionType
        case cardType, applicationLabel, paymentMethod, amountRefund, currency
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            transactionId: try c.decode(String.self, forKey: .transactionId),
            transactionDate: try c.decodeWireDate(forKey: .transactionDate),
            transactionStatus: try c.decode(TransactionStatus.self, forKey: .transactionStatus),
            amount: try c.decode(Int.self, forKey: .amount),
            transactionType: try c.decode(TransactionType.self, forKey: .transactionType),
            cardType: try c.decodeIfPresent(String.self, forKey: .cardType),
            applicationLabel: try c.decodeIfPresent(String.self, forKey: .applicationLabel),
            paymentMethod: try c.decode(PaymentMethod.self, forKey: .paymentMethod),
            amountRefund: try c.decodeIfPresent(Int.self, forKey: .amountRefund),
            currency: try c.decodeIfPresent(TerminalCurrency.self, forKey: .currency))
    }

    /// Writes every field, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(transactionId, forKey: .transactionId)
        try c.encodeWireDate(transactionDate, forKey: .transactionDate)
        try c.encode(transactionStatus, forKey: .transactionStatus)
        try c.encode(amount, forKey: .amount)
        try c.encode(transactionType, forKey: .transactionType)
        try c.encode(cardType, forKey: .cardType)
        try c.encode(applicationLabel, forKey: .applicationLabel)
        try c.encode(paymentMethod, forKey: .paymentMethod)
        try c.encode(amountRefund, forKey: .amountRefund)
        try c.encode(currency, forKey: .currency)
    }
}
