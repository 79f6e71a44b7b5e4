/// One group of `GET /terminal/v1/statistics`: a day or a card brand, named by `description`.
///
/// ```json
/// { "description": "VISA",
///   "items": [{ "fromDate": "2026-11-29T00:00:00.000Z", "toDate": "2026-11-29T23:59:59.999Z",
///               "amount": 4250, "count": 3 }] }
/// ```
public struct TransactionsStatistics: Codable, Sendable, Equatable {
    /// The day (`2026-11-29`) or brand (`VISA`) the group stands for.
    public var description: String
    public var items: [TransactionsStatisticsItem]

    public init(description: String, items: [TransactionsStatisticsItem]) {
        self.description = description
        self.items = items
    }
}

/// The seed's `TransactionsStatisticsItem`: a total over a span of time.
///
/// `fromDate` and `toDate` are ISO 8601 strings, as the seed types them (`String`).
public struct TransactionsStatisticsItem: Codable, Sendable, Equatable {
    public var fromDate: String
    public var toDate: String
    /// The sum of the transactions' amounts in minor units.
    public var amount: Int
    /// How many transactions the sum covers.
    public var count: Int

    public init(fromDate: String, toDate: String, amount: Int, count: Int) {
        self.fromDate = fromDate
        self.toDate = toDate
        self.amount = amount
        self.count = count
    }
}
