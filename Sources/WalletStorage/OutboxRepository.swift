import SandboxStore
import SandboxWire

/// All SQL of the notification outbox. A row is written in the same transaction as the state
/// change it reports, so a notification is never lost nor sent for a change that did not happen.
package struct OutboxRepository {
    package let db: Connection

    package func add(_ notification: WalletProvider.Notification, region: String, body: [UInt8], now realTime: Int64) throws {
        try db.run(
            "INSERT INTO outbox(id, region, order_id, type, body, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                .text(notification.id), .text(region), .text(notification.orderId), .text(notification.type.rawValue), .blob(body),
                .integer(realTime), .integer(realTime),
            ])
    }

    /// Pending notifications due at `realTime`, each the oldest pending one of its order (a host
    /// hears of an order's changes in the order they happened), the longest due first.
    ///
    /// Ordered as the partial index `outbox_pending` is, so only pending rows are read: ordered by
    /// `seq` alone, SQLite walks the whole table, every notification ever sent, to skip the sort.
    package func due(at realTime: Int64, limit: Int) throws -> [OutboxEntry] {
        try db.query(
            """
            SELECT seq, id, region, order_id, type, body, attempts FROM outbox AS o
            WHERE state = 'pending' AND next_attempt_at <= ?
              AND NOT EXISTS (SELECT 1 FROM outbox AS p WHERE p.state = 'pending' AND p.order_id = o.order_id AND p.seq < o.seq)
            ORDER BY next_attempt_at, seq LIMIT ?
            """, [.integer(realTime), .integer(Int64(limit))]
        ).compactMap(Self.entry)
    }

    /// The order's oldest pending notification and when it falls due (real time), if one is pending.
    package func oldestPending(orderId: String) throws -> (entry: OutboxEntry, due: Int64)? {
        try db.query(
            """
            SELECT seq, id, region, order_id, type, body, attempts, next_attempt_at FROM outbox
            WHERE state = 'pending' AND order_id = ? ORDER BY seq LIMIT 1
            """, [.text(orderId)]
        ).compactMap { row -> (OutboxEntry, Int64)? in
            guard let entry = try Self.entry(row) else { return nil }
            return (entry, try row["next_attempt_at"])
        }.first
    }

    private static func entry(_ row: Row) throws -> OutboxEntry? {
        guard let type = WalletProvider.NotificationType(rawValue: try row["type"]) else { return nil }
        return OutboxEntry(
            seq: try row["seq"], id: try row["id"], region: try row["region"], orderId: try row["order_id"], type: type, body: try row["body"],
            attempts: try row["attempts"])
    }

    /// When the next pending notification of an order not in `busy` falls due (real time), if any
    /// is pending: the orders another thread is delivering for are that thread's to finish.
    package func nextDue(excluding busy: Set<String>) throws -> Int64? {
        let rows = try db.query(
            "SELECT order_id, next_attempt_at FROM outbox WHERE state = 'pending' ORDER BY next_attempt_at LIMIT ?",
            [.integer(Int64(busy.count + 1))])
        for row in rows where !busy.contains(try row["order_id"]) { return try row["next_attempt_at"] }
        return nil
    }

    /// Holds a notification due at `realNow` for the one sending it until `until` (real time):
    /// replicas share the outbox, and a sender that dies lets go when the hold ends. False when it
    /// is not due (another replica holds it, or it waits for its retry) or no longer pending.
    package func hold(_ seq: Int64, due realNow: Int64, until: Int64) throws -> Bool {
        try db.run(
            "UPDATE outbox SET next_attempt_at = ? WHERE seq = ? AND state = 'pending' AND next_attempt_at <= ?",
            [.integer(until), .integer(seq), .integer(realNow)])
        return db.changes == 1
    }

    /// The host's final answer, which arrived at `answeredAt` (real time).
    package func finish(_ seq: Int64, state: OutboxEntry.State, status: Int?, answeredAt: Int64) throws {
        try db.run(
            "UPDATE outbox SET state = ?, attempts = attempts + 1, last_status = ?, last_error = NULL, answered_at = ? WHERE seq = ?",
            [.text(state.rawValue), status.map { .integer(Int64($0)) } ?? .null, .integer(answeredAt), .integer(seq)])
    }

    package func retry(_ seq: Int64, at realTime: Int64, status: Int?, error: String) throws {
        try db.run(
            "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_status = ?, last_error = ? WHERE seq = ?",
            [.integer(realTime), status.map { .integer(Int64($0)) } ?? .null, .text(error), .integer(seq)])
    }

    /// Drops the order's pending notifications of `type` (a payment the host can no longer take).
    package func drop(orderId: String, type: WalletProvider.NotificationType) throws {
        try db.run(
            "UPDATE outbox SET state = 'dropped' WHERE order_id = ? AND type = ? AND state = 'pending'",
            [.text(orderId), .text(type.rawValue)])
    }

    /// How many notifications wait for their host.
    package func pendingCount() throws -> Int {
        let count: Int64 = try db.query("SELECT COUNT(*) FROM outbox WHERE state = 'pending'")[0][0]
        return Int(count)
    }

    package func deleteAll() throws {
        try db.run("DELETE FROM outbox")
    }
}
