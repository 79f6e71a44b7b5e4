/// The seed's `TransactionType`: a sale (`AUTH`) or a refund (`REFUND`).
public enum TransactionType: String, Codable, Sendable, Equatable, CaseIterable {
    /// A sale.
    case AUTH
    /// A refund of an earlier sale, a transaction of its own.
    case REFUND
}
