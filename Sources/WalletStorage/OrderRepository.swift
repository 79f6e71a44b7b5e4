import SandboxStore
import SandboxWire

/// All SQL about orders.
package struct OrderRepository {
    /// Told after a commit that set something to do on the wallet's clock (an order's deadline, a
    /// rule's action, a refund's answer): the scheduler wakes and looks at ``nextDue()`` again.
    package static let scheduleChannel = "wallet-schedule"

    package let db: Connection

    package func insert(_ order: OrderRecord) throws {
        try db.run(
            OrderRecord.table.insert,
            order.values)
        db.notify(Self.scheduleChannel)
    }

    package func find(_ orderId: String) throws -> OrderRecord? {
        try db.query("SELECT \(OrderRecord.columns) FROM orders WHERE order_id = ?", [.text(orderId)]).first.map { try OrderRecord(row: $0) }
    }

    /// Newest first. `openOnly`: the orders that are not final yet (pending, scanned, paying).
    package func list(openOnly: Bool, limit: Int) throws -> [OrderRecord] {
        let filter = openOnly ? "WHERE status IN ('pending', 'scanned', 'paying')" : ""
        return try db.query(
            "SELECT \(OrderRecord.columns) FROM orders \(filter) ORDER BY created_at DESC, rowid DESC LIMIT ?",
            [.integer(Int64(limit))]
        ).map { try OrderRecord(row: $0) }
    }

    /// Writes the order's state (status, payment, reason, plan).
    package func update(_ order: OrderRecord) throws {
        try db.run(
            "UPDATE orders SET status = ?, payment_id = ?, reason = ?, plan_action = ?, plan_reason = ?, plan_due_at = ?, charged = ? WHERE order_id = ?",
            [
                .text(order.status.rawValue), order.paymentId.databaseValue, order.reason.databaseValue,
                order.plan.map { .text($0.action.rawValue) } ?? .null, order.plan?.reason.databaseValue ?? .null,
                order.plan.map { .integer($0.dueAt) } ?? .null, .integer(order.charged ? 1 : 0), .text(order.orderId),
            ])
        if order.plan != nil { db.notify(Self.scheduleChannel) }
    }

    /// Orders whose planned action is due at `now`.
    package func planned(dueBy now: Int64, limit: Int = 100) throws -> [OrderRecord] {
        try db.query(
            "SELECT \(OrderRecord.columns) FROM orders WHERE plan_due_at IS NOT NULL AND plan_due_at <= ? ORDER BY plan_due_at LIMIT ?",
            [.integer(now), .integer(Int64(limit))]
        ).map { try OrderRecord(row: $0) }
    }

    /// Payable orders whose deadline passed at `now`.
    package func overdue(at now: Int64, limit: Int = 100) throws -> [OrderRecord] {
        try db.query(
            "SELECT \(OrderRecord.columns) FROM orders WHERE status IN ('pending', 'scanned') AND expires_at <= ? ORDER BY expires_at LIMIT ?",
            [.integer(now), .integer(Int64(limit))]
        ).map { try OrderRecord(row: $0) }
    }

    /// The earliest moment something falls due on the wallet's clock (a planned action, a payable
    /// order's deadline, a refund's answer), nil: nothing is waiting. Each part reads its partial index.
    package func nextDue() throws -> Int64? {
        try db.query(
            """
            SELECT MIN(due) FROM (
                SELECT MIN(plan_due_at) AS due FROM orders WHERE plan_due_at IS NOT NULL
                UNION ALL SELECT MIN(expires_at) FROM orders WHERE status IN ('pending', 'scanned')
                UNION ALL SELECT MIN(due_at) FROM refunds WHERE status = 'pending') AS dues
            """)[0][0]
    }

    /// A BLIK customer's confirmation requests still waiting for an answer at `now`, oldest first.
    package func waiting(customerId: String, at now: Int64) throws -> [OrderRecord] {
        try db.query(
            "SELECT \(OrderRecord.columns) FROM orders WHERE customer_id = ? AND status = 'pending' AND expires_at > ? ORDER BY created_at, rowid",
            [.text(customerId), .integer(now)]
        ).map { try OrderRecord(row: $0) }
    }

    package func deleteAll() throws {
        try db.run("DELETE FROM orders")
    }
}

extension Connection {
    package var orders: OrderRepository { OrderRepository(db: self) }
    package var refunds: RefundRepository { RefundRepository(db: self) }
    package var rules: RuleRepository { RuleRepository(db: self) }
    package var outbox: OutboxRepository { OutboxRepository(db: self) }
    package var blik: BlikRepository { BlikRepository(db: self) }
    package var walletState: WalletStateRepository { WalletStateRepository(db: self) }
}
