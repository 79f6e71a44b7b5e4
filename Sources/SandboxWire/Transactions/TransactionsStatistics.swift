/// One group of `GET /terminal/v1/statistics`: a day or a card brand, named by `description`.
///
/// ```json
/// { "description": "VISA",
///   "items": [{ "fromDate": "2026-11-29T00:00:00.000Z", "toDate": "2026-11-29T23:59:59.999Z",
///               "amount": 4250, "count": 3 }] }
/// ```
public struct TransactionsStatistics: Codable, Sendable, Equatable, Hashable {
    /// The day (`2026-11-29`) or brand (`VISA`) the group stands for.
    public var description: String
    public var items: [TransactionsStatisticsItem]

    public init(description: String, items: [TransactionsStatisticsItem]) {
        self.description = description
        self.items = items
    }
}
