import SandboxStore

/// The host's own rows (`host_identity`) and what touches the whole database: the health probe
/// and the sandbox reset.
package struct HostRepository {
    package let db: Connection

    /// The region that owns the database, recorded as `region` when the database is new.
    package func claim(for region: String) throws -> String? {
        if let existing = try db.query("SELECT value FROM host_identity WHERE key = 'region'").first {
            return try existing["value"] as String?
        }
        try db.run("INSERT INTO host_identity (key, value) VALUES ('region', ?)", [.text(region)])
        return region
    }

    /// A secret of the host's own, kept with its identity: read, or made by `make` on first use
    /// (`monei_pos_token_key` signs the MONEI host's POS tokens, so they outlive a restart and a reset).
    package func secret(_ name: String, make: () -> String) throws -> String {
        if let existing = try db.query("SELECT value FROM host_identity WHERE key = ?", [.text(name)]).first {
            return try existing["value"] as String
        }
        let secret = make()
        try db.run("INSERT INTO host_identity (key, value) VALUES (?, ?)", [.text(name), .text(secret)])
        return secret
    }

    /// How far the sandbox clock ran ahead of real time when it last moved, in seconds (0 when it
    /// never moved): a restarted host goes on from there instead of going back to real time.
    package func clockOffset() throws -> Double {
        guard let row = try db.query("SELECT value FROM host_identity WHERE key = 'clock_offset'").first else { return 0 }
        return Double(try row["value"] as String) ?? 0
    }

    /// The clock offset the database holds and how many moves made it (replicas take up a move
    /// once, in order), in one query outside a transaction.
    package static func sharedClock(in store: Store) throws -> (offset: Double, version: Int64) {
        var offset = 0.0, version: Int64 = 0
        for row in try store.query("SELECT key, value FROM host_identity WHERE key IN ('clock_offset', 'clock_version')") {
            let value: String = try row["value"]
            if try row["key"] == "clock_offset" { offset = Double(value) ?? 0 } else { version = Int64(value) ?? 0 }
        }
        return (offset, version)
    }

    package func saveClockOffset(_ seconds: Double) throws {
        try db.run(
            "INSERT INTO host_identity (key, value) VALUES ('clock_offset', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [.text(String(seconds))])
        try db.run(
            """
            INSERT INTO host_identity (key, value) VALUES ('clock_version', '1')
            ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(host_identity.value AS BIGINT) + 1 AS TEXT)
            """)
        // Replicas on one PostgreSQL database take the new offset up (HostRepository.clockChannel).
        db.notify(Self.clockChannel)
    }

    /// What ``saveClockOffset(_:)`` notifies.
    package static let clockChannel = "clock"

    /// Whether the database answers a read. `SELECT 1` reads no page, and a WAL reader never waits
    /// for the writer: it does not block.
    package func isReadable() throws -> Bool {
        try db.query("SELECT 1 AS ok").first != nil
    }

    /// Forgets every row but the host's identity, the schema and the spent card reads.
    package func reset() throws {
        if db.engine == .postgres {
            // TRUNCATE empties a table at once, whatever its size, in the same transaction.
            try db.execute("""
                TRUNCATE attempt_failures, webhook_claims, webhook_attempts, webhook_events, webhook_endpoints, receipts, checkouts, idempotency_keys,
                    apm_notifications, wallet_calls, customer_turns, transactions, transaction_hours, transaction_days,
                    sessions, support_numbers, registration_tokens, challenges, devices, mailbox, terminals, merchants
                """)
            return
        }
        // Every transaction goes, and its hour and day totals with it. A DELETE of the table (which
        // has a foreign key and a delete trigger) goes row by row through every index and the
        // trigger: 13 s for a million. Dropping it and creating it again from its own schema
        // (table, indexes, triggers), in the same transaction, takes no time.
        let schema: [String] = try db.query(
            """
            SELECT sql FROM sqlite_master WHERE tbl_name = 'transactions' AND sql IS NOT NULL
            ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, name
            """
        ).map { try $0["sql"] }
        // Spent card reads stay: a read id clears once, ever, in this region, so a payload kept from
        // before a reset is still a replay after it.
        for table in ["attempt_failures", "webhook_claims", "webhook_attempts", "webhook_events", "webhook_endpoints", "receipts", "checkouts", "idempotency_keys", "apm_notifications", "wallet_calls", "customer_turns"] {
            try db.run("DELETE FROM \(table)")
        }
        try db.execute("DROP TABLE transactions")
        for statement in schema { try db.execute(statement) }
        for table in ["transaction_hours", "transaction_days", "sessions", "support_numbers", "registration_tokens", "challenges", "devices", "mailbox", "terminals", "merchants"] {
            try db.run("DELETE FROM \(table)")
        }
    }
}
