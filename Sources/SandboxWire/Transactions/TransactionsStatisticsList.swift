/// The answer to `GET /terminal/v1/statistics` (under the seed's `getTransactionsStatistics`):
/// the statistics in an object, so the answer can grow fields without breaking a reader.
///
/// ```json
/// {"statistics":[{…}, …]}
/// ```
public struct TransactionsStatisticsList: Codable, Sendable, Equatable {
    public let statistics: [TransactionsStatistics]

    public init(statistics: [TransactionsStatistics]) {
        self.statistics = statistics
    }
}
