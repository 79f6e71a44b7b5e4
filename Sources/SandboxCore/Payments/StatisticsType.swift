/// The seed's `TransactionsStatisticsType`: how `GET /terminal/v1/statistics` groups.
public enum StatisticsType: String, Codable, Sendable, Equatable, CaseIterable {
    /// One group per day.
    case daily
    /// One group per card brand (the brand is the group's `description`).
    case brand
}
