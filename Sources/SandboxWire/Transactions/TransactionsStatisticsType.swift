/// The seed's `TransactionsStatisticsType`: how `GET /terminal/v1/statistics` groups
/// (`statisticsType=daily|brand`).
public enum TransactionsStatisticsType: String, Codable, Sendable, Equatable, CaseIterable {
    /// One group per UTC day.
    case daily
    /// One group per card brand (the brand is the group's `description`).
    case brand
}
