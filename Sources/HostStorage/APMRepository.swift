import SandboxStore

/// What QR wallet payments keep beside their transactions: the wallet's notifications the host
/// took (`apm_notifications`), the calls it owes the wallet (`wallet_calls`), and the QR rows'
/// own reads (deadlines across terminals, the refunds of a payment).
package struct APMRepository {
    package let db: Connection

    // MARK: - Transactions

    /// A QR transaction of any terminal (a notification names only its id).
    package func record(id: String) throws -> TransactionRecord? {
        try db.query("SELECT * FROM transactions WHERE id = ? AND payment_method <> 'CARD'", [.text(id)]).first
            .map(TransactionRecord.init)
    }

    /// The QR transactions of every terminal whose deadline passed by `now` (the sweep that sends
    /// expiry webhooks with nobody polling).
    package func expired(at now: Int64) throws -> [TransactionRecord] {
        try db.query(
            """
            SELECT * FROM transactions INDEXED BY transactions_in_flight
            WHERE pending_until IS NOT NULL AND pending_until <= ? AND payment_method <> 'CARD'
            """, [.integer(now)]
        ).map(TransactionRecord.init)
    }

    /// The refunds of `payment` that are paid out or still waiting for the wallet: their sum.
    package func refundedOrPending(payment: String) throws -> Int {
        try db.query(
            "SELECT COALESCE(SUM(amount), 0) AS total FROM transactions WHERE original_id = ? AND type = 'REFUND' AND status IN ('CLEARED', 'ONGOING')",
            [.text(payment)]
        ).first?["total"] ?? 0
    }

    /// The refunds of `payment` that are paid out: their sum.
    package func refunded(payment: String) throws -> Int {
        try db.query(
            "SELECT COALESCE(SUM(amount), 0) AS total FROM transactions WHERE original_id = ? AND type = 'REFUND' AND status = 'CLEARED'",
            [.text(payment)]
        ).first?["total"] ?? 0
    }

    /// Removes a payment that was never made (the wallet did not answer its order).
    package func delete(id: String) throws {
        try db.run("DELETE FROM transactions WHERE id = ?", [.text(id)])
    }

    // MARK: - Notifications

    /// Records a notification as taken.
    ///
    /// - Returns: false when it was taken before (a repeat: it changes nothing).
    package func take(notification id: String, type: String, transaction: String, at now: Int64) throws -> Bool {
        try db.run(
            "INSERT INTO apm_notifications (id, type, transaction_id, received_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [.text(id), .text(type), .text(transaction), .integer(now)])
        return db.changes == 1
    }

    /// Whether a notification was taken before.
    package func wasTaken(notification id: String) throws -> Bool {
        try !db.query("SELECT 1 FROM apm_notifications WHERE id = ?", [.text(id)]).isEmpty
    }

    // MARK: - Calls to the wallet

    /// A call the host owes the wallet.
    package struct WalletCall: Sendable, Equatable {
        package let seq: Int64
        package let kind: String
        package let transactionID: String
        package let path: String
        package let body: [UInt8]
        package let attempts: Int
        package let state: String
        package let lastStatus: Int?
    }

    package func enqueueCall(kind: String, transaction: String, path: String, body: [UInt8], at now: Int64, dueAt: Int64) throws {
        try db.run(
            """
            INSERT INTO wallet_calls (kind, transaction_id, path, body, created_at, state, next_attempt_at)
            VALUES (?, ?, ?, ?, ?, 'pending', ?)
            """, [.text(kind), .text(transaction), .text(path), .blob(body), .integer(now), .integer(dueAt)])
        db.notify(Self.channel)
    }

    /// The store channel of the ``WalletCourier``'s work: a call owed to the wallet, or a QR or
    /// BLIK transaction with a deadline, was written.
    package static let channel = "wallet-courier"

    /// When the next pending call to the wallet is due (real-time milliseconds), if any.
    package func nextCallDue() throws -> Int64? {
        try db.query("SELECT MIN(next_attempt_at) AS due FROM wallet_calls WHERE state = 'pending'").first?["due"]
    }

    /// The earliest deadline of a QR or BLIK transaction in flight (sandbox-clock milliseconds), if any.
    package func nextDeadline() throws -> Int64? {
        try db.query(
            """
            SELECT MIN(pending_until) AS due FROM transactions INDEXED BY transactions_in_flight
            WHERE pending_until IS NOT NULL AND payment_method <> 'CARD'
            """
        ).first?["due"]
    }

    /// The pending calls due by `realNow` (real-time milliseconds), the longest due first (the
    /// order of the partial index `wallet_calls_due`: by `seq` alone SQLite would walk every call
    /// ever made).
    package func dueCalls(at realNow: Int64, limit: Int) throws -> [WalletCall] {
        try db.query(
            "SELECT * FROM wallet_calls WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT ?",
            [.integer(realNow), .integer(Int64(limit))]
        ).map(Self.call)
    }

    /// The calls owed for a transaction, in order (tests and the back office look at them).
    package func calls(transaction: String) throws -> [WalletCall] {
        try db.query("SELECT * FROM wallet_calls WHERE transaction_id = ? ORDER BY seq", [.text(transaction)]).map(Self.call)
    }

    /// Takes a due call for the one sender (replicas of a host share the queue): its next attempt
    /// moves to `until` (real time), so no one else sends it meanwhile, and again then, should this
    /// sender have died.
    ///
    /// - Returns: whether it was still pending and due, and is now held until `until`.
    package func claimCall(_ seq: Int64, due realNow: Int64, until: Int64) throws -> Bool {
        try db.run(
            "UPDATE wallet_calls SET next_attempt_at = ? WHERE seq = ? AND state = 'pending' AND next_attempt_at <= ?",
            [.integer(until), .integer(seq), .integer(realNow)])
        return db.changes == 1
    }

    /// The wallet answered: the call is done, whatever it said (if this sender still holds it:
    /// `heldUntil`, its claim).
    package func markAnswered(_ seq: Int64, status: Int, attempts: Int, at realNow: Int64, heldUntil: Int64) throws {
        try db.run(
            """
            UPDATE wallet_calls SET state = 'answered', attempts = ?, last_status = ?, last_error = NULL, answered_at = ?
            WHERE seq = ? AND state = 'pending' AND next_attempt_at = ?
            """,
            [.integer(Int64(attempts)), .integer(Int64(status)), .integer(realNow), .integer(seq), .integer(heldUntil)])
    }

    /// No answer (or a 5xx): try again at `next` (real time), if this sender still holds it.
    package func reschedule(_ seq: Int64, attempts: Int, status: Int?, error: String?, next: Int64, heldUntil: Int64) throws {
        try db.run(
            "UPDATE wallet_calls SET attempts = ?, last_status = ?, last_error = ?, next_attempt_at = ? WHERE seq = ? AND next_attempt_at = ?",
            [.integer(Int64(attempts)), status.map { .integer(Int64($0)) } ?? .null, error.map(DatabaseValue.text) ?? .null,
             .integer(next), .integer(seq), .integer(heldUntil)])
    }

    private static func call(_ row: Row) throws -> WalletCall {
        WalletCall(
            seq: try row["seq"], kind: try row["kind"], transactionID: try row["transaction_id"], path: try row["path"],
            body: try row["body"], attempts: Int(try row["attempts"] as Int64), state: try row["state"],
            lastStatus: (try row["last_status"] as Int64?).map(Int.init))
    }
}
