/// The seed's `TransactionsStatisticsItem`: a total over a span of time.
///
/// `fromDate` and `toDate` are ISO 8601 strings, as the seed types them (`String`).
public struct TransactionsStatisticsItem: Codable, Sendable, Equatable, Hashable {
    /// ISO 8601 start of the aggregated span.
    public var fromDate: String
    /// ISO 8601 end of the aggregated span.
    public var toDate: String
    /// The sum of the approved sales, in minor units.
    public var amount: Int
    /// How many sales the sum has (the host's addition to the seed's model; the host always sends it).
    public var count: Int?

    public init(fromDate: String, toDate: String, amount: Int, count: Int? = nil) {
        self.fromDate = fromDate
        self.toDate = toDate
        self.amount = amount
        self.count = count
    }
}
