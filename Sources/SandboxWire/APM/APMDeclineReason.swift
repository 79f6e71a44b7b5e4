/// Why a wallet (or, for BLIK, a bank) refused a payment: the `declineReason` of an
/// ``APMTransaction``, the reason picker of the wallet's pay page, and its API's `reason`.
public enum APMDeclineReason: String, Codable, Sendable, Equatable, CaseIterable {
    case insufficient_funds
    case limit_exceeded
    case declined_by_customer
    /// The wallet provider's (or bank's) own risk refusal.
    case declined_by_provider
    case system_error

    /// The response code and message the host writes on the transaction.
    public var response: (code: String, message: String) {
        switch self {
        case .insufficient_funds: ("51", "Insufficient funds")
        case .limit_exceeded: ("61", "Exceeds withdrawal limit")
        case .declined_by_customer: ("C1", "Declined by the customer")
        case .declined_by_provider: ("05", "Declined by the wallet provider")
        case .system_error: ("96", "System malfunction")
        }
    }
}
