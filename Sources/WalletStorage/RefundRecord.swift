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

    /// The table: each column beside the property it holds.
    package static let table = ColumnTable<RefundRecord>("refunds", [
        Column("refund_id", \.refundId), Column("order_id", \.orderId), Column("region", \.region), Column("amount", \.amount),
        Column("reference", \.reference), Column("status", \.status, unknown: .pending), Column("reason", \.reason),
        Column("provider_id", \.providerId), Column("outcome", \.outcome, unknown: .approve),
        Column("outcome_reason", \.outcomeReason), Column("due_at", \.dueAt), Column("created_at", \.createdAt),
        Column("request", \.request),
    ])

    package init(row: Row) throws {
        self = try Self.table.record(row, from: RefundRecord(
            refundId: "", orderId: "", region: "", amount: 0, reference: nil, status: .pending, reason: nil, providerId: nil,
            outcome: .approve, outcomeReason: nil, dueAt: 0, createdAt: 0, request: ""))
    }
}
