import SandboxStore

/// One row of `refunds`: a host's refund and what the wallet will answer, and when.
struct RefundRecord: Sendable, Equatable {
    enum Status: String, Sendable { case pending, succeeded, failed }

    var refundId: String
    var orderId: String
    var region: String
    var amount: Int
    var reference: String?
    var status: Status
    /// On `failed`: an ``APMDeclineReason`` raw value.
    var reason: String?
    /// The wallet's id of the refund, once it succeeded.
    var providerId: String?
    /// What the wallet decided when the refund came (a rule's), carried out at `dueAt`.
    var outcome: RuleAction
    var outcomeReason: String?
    var dueAt: Int64
    var createdAt: Int64
    var request: String
}
