/// How many transactions match the filters (seed "TransactionsCount"), as
/// `GET /terminal/v1/transactions/count` answers it: `{"count": 3}`.
public struct TransactionsCount: Codable, Sendable, Equatable, Hashable {
    public var count: Int

    public init(count: Int) {
        self.count = count
    }
}
