import Foundation
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

    /// What replicas share beside the rows, as one query outside a transaction reads it before
    /// every request: the clock offset with its version, the fault plan's version, and whether the
    /// journal keeps bodies.
    package struct SharedState: Sendable {
        package var clockOffset = 0.0
        package var clockVersion: Int64 = 0
        package var faultsVersion: Int64 = 0
        /// nil: never set through a replica.
        package var journalBodies: Bool?
    }

    package static func sharedState(in store: Store) throws -> SharedState {
        var state = SharedState()
        for row in try store.query(
            "SELECT key, value FROM host_identity WHERE key IN ('clock_offset', 'clock_version', 'faults_version', 'journal_bodies')")
        {
            let value: String = try row["value"]
            switch try row["key"] as String {
            case "clock_offset": state.clockOffset = Double(value) ?? 0
            case "clock_version": state.clockVersion = Int64(value) ?? 0
            case "journal_bodies": state.journalBodies = value == "1"
            default: state.faultsVersion = Int64(value) ?? 0
            }
        }
        return state
    }

    /// The next version of `key`: past the last, and past now in microseconds, so that versions
    /// only grow even after a snapshot brought older ones back.
    private func nextVersion(_ key: String) throws -> Int64 {
        let last: String? = try db.query("SELECT value FROM host_identity WHERE key = ?", [.text(key)]).first?["value"]
        let version = max((last.flatMap { Int64($0) } ?? 0) + 1, Int64(Date().timeIntervalSince1970 * 1_000_000))
        try db.run(
            "INSERT INTO host_identity (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [.text(key), .text(String(version))])
        return version
    }

    /// The fault plan replicas share (`[]` when none was saved).
    package func faults() throws -> [UInt8] {
        let saved: String? = try db.query("SELECT value FROM host_identity WHERE key = 'faults'").first?["value"]
        return Array((saved ?? "[]").utf8)
    }

    /// Saves the shared fault plan as its next version.
    package func saveFaults(_ plan: [UInt8]) throws -> Int64 {
        try db.run(
            "INSERT INTO host_identity (key, value) VALUES ('faults', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [.text(String(decoding: plan, as: UTF8.self))])
        return try nextVersion("faults_version")
    }

    /// Whether the replicas' journal keeps bodies (`PUT /backoffice/v1/requests/capture`).
    package func saveJournalBodies(_ on: Bool) throws {
        try db.run(
            "INSERT INTO host_identity (key, value) VALUES ('journal_bodies', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [.text(on ? "1" : "0")])
    }

    package func saveClockOffset(_ seconds: Double) throws {
        try db.run(
            "INSERT INTO host_identity (key, value) VALUES ('clock_offset', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [.text(String(seconds))])
        _ = try nextVersion("clock_version")
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
