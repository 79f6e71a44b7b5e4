import Foundation

/// One line of the transaction history (seed "TransactionHistoryItems").
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
    public var currency: Currency?

    enum CodingKeys: String, CodingKey {
        case transactionId, transactionDate, transactionStatus, amount, transactionType, cardType, applicationLabel
        case paymentMethod, amountRefund, currency
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transactionId = try c.decode(String.self, forKey: .transactionId)
        transactionDate = try c.decodeDate(forKey: .transactionDate)
        transactionStatus = try c.decode(TransactionStatus.self, forKey: .transactionStatus)
        amount = try c.decode(Int.self, forKey: .amount)
        transactionType = try c.decode(TransactionType.self, forKey: .transactionType)
        cardType = try c.decodeIfPresent(String.self, forKey: .cardType)
        applicationLabel = try c.decodeIfPresent(String.self, forKey: .applicationLabel)
        paymentMethod = try c.decode(PaymentMethod.self, forKey: .paymentMethod)
        amountRefund = try c.decodeIfPresent(Int.self, forKey: .amountRefund)
        currency = try c.decodeIfPresent(Currency.self, forKey: .currency)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(transactionId, forKey: .transactionId)
        try c.encodeDate(transactionDate, forKey: .transactionDate)
        try c.encode(transactionStatus, forKey: .transactionStatus)
        try c.encode(amount, forKey: .amount)
        try c.encode(transactionType, forKey: .transactionType)
        try c.encodeIfPresent(cardType, forKey: .cardType)
        try c.encodeIfPresent(applicationLabel, forKey: .applicationLabel)
        try c.encode(paymentMethod, forKey: .paymentMethod)
        try c.encodeIfPresent(amountRefund, forKey: .amountRefund)
        try c.encodeIfPresent(currency, forKey: .currency)
    }
}

/// One page of the history, newest first; a collection of its items, so the seed's
/// `history.append(contentsOf: page)` works.
///
/// ```swift
/// if case .success(let page) = await sdk.fetchTransactionsHistory(page: 1, itemsPerPage: 20, dateFrom: "", dateTo: "",
///                                                                   filterStatus: [], filterType: []) {
///     print("\(page.count) of \(page.total)")
/// }
/// ```
public struct TransactionsHistoryPage: Codable, Sendable, Equatable, Hashable, RandomAccessCollection {
    public var items: [TransactionHistoryItem]
    /// The page number, from 1.
    public var page: Int
    public var itemsPerPage: Int
    /// How many transactions match the filters on all pages.
    public var total: Int

    public init(items: [TransactionHistoryItem], page: Int, itemsPerPage: Int, total: Int) {
        self.items = items
        self.page = page
        self.itemsPerPage = itemsPerPage
        self.total = total
    }

    public var startIndex: Int { items.startIndex }
    public var endIndex: Int { items.endIndex }
    public subscript(position: Int) -> TransactionHistoryItem { items[position] }
}

/// How many transactions match the filters (seed "TransactionsCount").
public struct TransactionsCount: Codable, Sendable, Equatable, Hashable {
    public var count: Int

    public init(count: Int) {
        self.count = count
    }
}

/// One group of statistics: a day, or a card brand (named in ``description``).
public struct TransactionsStatistics: Codable, Sendable, Equatable, Hashable {
    /// The day (`2026-11-29`) or the brand (`VISA`).
    public var description: String
    public var items: [TransactionsStatisticsItem]

    public init(description: String, items: [TransactionsStatisticsItem]) {
        self.description = description
        self.items = items
    }
}

/// One aggregated figure (seed "TransactionsStatisticsItem").
public struct TransactionsStatisticsItem: Codable, Sendable, Equatable, Hashable {
    /// ISO 8601 start of the aggregated span.
    public var fromDate: String
    /// ISO 8601 end of the aggregated span.
    public var toDate: String
    /// The sum of the approved sales, in minor units.
    public var amount: Int
    /// How many sales the sum has (the host's addition to the seed's model).
    public var count: Int?

    public init(fromDate: String, toDate: String, amount: Int, count: Int? = nil) {
        self.fromDate = fromDate
        self.toDate = toDate
        self.amount = amount
        self.count = count
    }
}

/// The answer to ``TapOnMobile/getDigitalReceipt(from:receiptType:email:)``.
public struct ReceiptConfirmation: Codable, Sendable, Equatable, Hashable {
    /// `GENERATED` for a QR receipt, `SENT` for an e-mail.
    public enum Status: String, Codable, Sendable, CaseIterable {
        case GENERATED
        case SENT
    }

    public var status: Status
    /// The receipt page to show as a QR code (QR receipts only).
    public var url: String?

    public init(status: Status, url: String?) {
        self.status = status
        self.url = url
    }
}
