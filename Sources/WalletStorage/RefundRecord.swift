import SandboxStore

/// One row of `refunds`: a host's refund and what the wallet will answer, and when.
package struct RefundRecord: Sendable, Equatable {
    package enum Status: String, Sendable { case pending, succeeded, failed }

    package var refundId: String
    package var orderId: String
    package var region: String
    package var amount: Int
    package var reference: String?
    package var status: Status
    /// On `failed`: an ``APMDeclineReason`` raw value.
    package var reason: String?
    /// The wallet's id of the refund, once it succeeded.
    package var providerId: String?
    /// What the wallet decided when the refund came (a rule's), carried out at `dueAt`.
    package var outcome: RuleAction
    package var outcomeReason: String?
    package var dueAt: Int64
    package var createdAt: Int64
    package var request: String

    package init(refundId: String, orderId: String, region: String, amount: Int, reference: String?, status: Status, reason: String?, providerId: String?, outcome: RuleAction, outcomeReason: String?, dueAt: Int64, createdAt: Int64, request: String) {
        self.refundId = refundId
        self.orderId = orderId
        self.region = region
        self.amount = amount
        self.reference = reference
        self.status = status
        self.reason = reason
        self.providerId = providerId
        self.outcome = outcome
        self.outcomeReason = outcomeReason
        self.dueAt = dueAt
        self.createdAt = createdAt
        self.request = request
    }
}
