import SandboxStore

/// All SQL about refunds.
package struct RefundRepository {
    package let db: Connection

    private static let columns = """
        refund_id, order_id, region, amount, reference, status, reason, provider_id, outcome, outcome_reason, due_at, created_at, request
        """

    package func insert(_ refund: RefundRecord) throws {
        try db.run(
            "INSERT INTO refunds(\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .text(refund.refundId), .text(refund.orderId), .text(refund.region), .integer(Int64(refund.amount)),
                refund.reference.databaseValue, .text(refund.status.rawValue), refund.reason.databaseValue,
                refund.providerId.databaseValue, .text(refund.outcome.rawValue), refund.outcomeReason.databaseValue,
                .integer(refund.dueAt), .integer(refund.createdAt), .text(refund.request),
            ])
        if refund.status == .pending { db.notify(OrderRepository.scheduleChannel) }
    }

    package func find(_ refundId: String) throws -> RefundRecord? {
        try db.query("SELECT \(Self.columns) FROM refunds WHERE refund_id = ?", [.text(refundId)]).first.map { try Self.record($0) }
    }

    /// What the order's refunds that have not failed add up to.
    package func committedAmount(of orderId: String) throws -> Int {
        let total: Int64? = try db.query(
            "SELECT SUM(amount) FROM refunds WHERE order_id = ? AND status != 'failed'", [.text(orderId)])[0][0]
        return Int(total ?? 0)
    }

    package func due(by now: Int64, limit: Int = 100) throws -> [RefundRecord] {
        try db.query(
            "SELECT \(Self.columns) FROM refunds WHERE status = 'pending' AND due_at <= ? ORDER BY due_at LIMIT ?",
            [.integer(now), .integer(Int64(limit))]
        ).map { try Self.record($0) }
    }

    package func finish(_ refund: RefundRecord) throws {
        try db.run(
            "UPDATE refunds SET status = ?, reason = ?, provider_id = ? WHERE refund_id = ?",
            [.text(refund.status.rawValue), refund.reason.databaseValue, refund.providerId.databaseValue, .text(refund.refundId)])
    }

    package func deleteAll() throws {
        try db.run("DELETE FROM refunds")
    }

    private static func record(_ row: Row) throws -> RefundRecord {
        RefundRecord(
            refundId: try row["refund_id"], orderId: try row["order_id"], region: try row["region"], amount: try row["amount"],
            reference: try row["reference"], status: RefundRecord.Status(rawValue: try row["status"]) ?? .pending, reason: try row["reason"],
            providerId: try row["provider_id"], outcome: RuleAction(rawValue: try row["outcome"]) ?? .approve,
            outcomeReason: try row["outcome_reason"], dueAt: try row["due_at"], createdAt: try row["created_at"], request: try row["request"])
    }
}
