import SandboxStore

/// Card transactions with what they spend and keep: card reads, idempotency keys, checkouts,
/// receipts, and the hour and day totals that count and statistics read.
struct TransactionRepository {
    let db: Connection

    /// The transactions a device's terminal has in flight (a device that leaves ends them).
    func inFlight(device: String) throws -> [TransactionRecord] {
        try db.query(
            """
            SELECT * FROM transactions INDEXED BY transactions_in_flight
            WHERE pending_until IS NOT NULL
              AND terminal_id = (SELECT terminal_id FROM devices WHERE id = ? AND state = 'registered')
            """, [.text(device)]
        ).map(TransactionRecord.init)
    }
}
