import SandboxStore

/// All SQL about refunds.
package struct RefundRepository {
    package let db: Connection

    package func insert(_ refund: RefundRecord) throws {
        try db.run(RefundRecord.table.insert, RefundRecord.table.values(of: refund))
        if refund.status == .pending { db.notify(OrderRepository.scheduleChannel) }
    }

    package func find(_ refundId: String) throws -> RefundRecord? {
        try db.query("SELECT \(RefundRecord.table.list) FROM refunds WHERE refund_id = ?", [.text(refundId)]).first.map(RefundRecord.init(row:))
    }

    /// What the order's refunds that have not failed add up to.
    package func committedAmount(of orderId: String) throws -> Int {
        let total: Int64? = try db.query(
            "SELECT SUM(amount) FROM refunds WHERE order_id = ? AND status != 'failed'", [.text(orderId)])[0][0]
        return Int(total ?? 0)
    }

    package func due(by now: Int64, limit: Int = 100) throws -> [RefundRecord] {
        try db.query(
            "SELECT \(RefundRecord.table.list) FROM refunds WHERE status = 'pending' AND due_at <= ? ORDER BY due_at LIMIT ?",
            [.integer(now), .integer(Int64(limit))]
        ).map(RefundRecord.init(row:))
    }

    package func finish(_ refund: RefundRecord) throws {
        try db.run(
            "UPDATE refunds SET status = ?, reason = ?, provider_id = ? WHERE refund_id = ?",
            [.text(refund.status.rawValue), refund.reason.databaseValue, refund.providerId.databaseValue, .text(refund.refundId)])
    }

    package func deleteAll() throws {
        try db.run("DELETE FROM refunds")
    }
}
