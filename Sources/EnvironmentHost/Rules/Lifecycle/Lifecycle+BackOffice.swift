import Foundation
import SandboxCore
import SandboxHTTP
import SandboxStore

/// What the portal and merchant backends see and do: terminals, unlock, unregister, mailbox, reset.
extension Lifecycle {
    struct TerminalState: Codable, Sendable {
        let terminalId: String
        let merchantId: String
        let registered: Bool
        let locked: Bool
        let deviceId: String?
        let deviceModel: String?
        let failedAttempts: Int
        let lastLoginAt: String?
        let registerOptions: [String]
        let autoLogin: Bool
    }

    private static let terminalStateQuery = """
        SELECT t.id, t.merchant_id, t.profile, d.id AS device_id, d.model, d.failed_attempts, d.locked, d.last_login_at
        FROM terminals t LEFT JOIN devices d ON d.terminal_id = t.id AND d.state = 'registered'
        """

    private func terminalState(_ row: Row) throws -> TerminalState {
        let terminal = try Terminal(row)
        let device: String? = try row["device_id"]
        let lastLogin: Int64? = try row["last_login_at"]
        return TerminalState(
            terminalId: terminal.id, merchantId: terminal.merchantID, registered: device != nil,
            locked: (try row["locked"] as Int64?) == 1, deviceId: device, deviceModel: try row["model"],
            failedAttempts: Int(try row["failed_attempts"] as Int64? ?? 0), lastLoginAt: lastLogin.map(Wire.time),
            registerOptions: terminal.profile.registerOptions.map(\.rawValue), autoLogin: terminal.profile.autoLogin)
    }

    /// Terminals of one merchant (merchant API) or of every merchant, in fixture order.
    func terminals(merchant: String?) throws -> [TerminalState] {
        try store.read { db in
            let rows =
                if let merchant {
                    try db.query(Self.terminalStateQuery + " WHERE t.merchant_id = ? ORDER BY t.position", [.text(merchant)])
                } else {
                    try db.query(Self.terminalStateQuery + " ORDER BY t.position")
                }
            return try rows.map(terminalState)
        }
    }

    func terminalState(_ id: String) throws -> TerminalState {
        try store.read { db in
            guard let row = try db.query(Self.terminalStateQuery + " WHERE t.id = ?", [.text(id)]).first else {
                throw LifecycleError.terminalNotFound
            }
            return try terminalState(row)
        }
    }

    struct MerchantSummary: Codable, Sendable {
        let merchantId: String
        let name: String
        /// The owner's address from the fixture: where the portal offers to e-mail a registration token.
        let email: String?
        let terminals: [TerminalState]
    }

    func merchants() throws -> [MerchantSummary] {
        let terminals = try terminals(merchant: nil)
        return try store.read { db in
            try db.query("SELECT document FROM merchants ORDER BY rowid").map { row in
                let merchant = try JSONDecoder().decode(Merchant.self, from: Data((try row["document"] as String).utf8))
                return MerchantSummary(
                    merchantId: merchant.id, name: merchant.name, email: merchant.email, terminals: terminals.filter { $0.merchantId == merchant.id })
            }
        }
    }

    /// The merchant an API key belongs to.
    func merchant(apiKey: String) throws -> String? {
        try store.read { db in
            try db.query("SELECT id FROM merchants WHERE api_key = ?", [.text(apiKey)]).first.map { try $0["id"] }
        }
    }

    /// The back office clears the lock after too many wrong secure codes.
    func unlock(terminal id: String) throws {
        try write { db in
            guard try terminal(db, id) != nil else { throw LifecycleError.terminalNotFound }
            try db.run(
                "UPDATE devices SET locked = 0, failed_attempts = 0 WHERE terminal_id = ? AND state = 'registered'", [.text(id)])
            guard db.changes == 1 else { throw LifecycleError.terminalNotRegistered }
        }
    }

    /// The back office unregisters the device of a terminal.
    func unregister(terminal id: String) throws {
        let now = now()
        try write { db in
            guard try terminal(db, id) != nil else { throw LifecycleError.terminalNotFound }
            guard let device = try db.query("SELECT id FROM devices WHERE terminal_id = ? AND state = 'registered'", [.text(id)]).first
            else { throw LifecycleError.terminalNotRegistered }
            try unregister(db, device: try device["id"], reason: "backoffice", at: now)
        }
    }

    struct Mail: Codable, Sendable {
        let id: Int
        let to: String
        let subject: String
        let body: String
        let createdAt: String
    }

    func mailbox() throws -> [Mail] {
        try store.read { db in
            try db.query("SELECT * FROM mailbox ORDER BY id DESC").map { row in
                Mail(
                    id: Int(try row["id"] as Int64), to: try row["recipient"], subject: try row["subject"], body: try row["body"],
                    createdAt: Wire.time(try row["created_at"]))
            }
        }
    }

    /// Writes the fixtures into the database: new merchants and terminals appear, changed ones are
    /// updated, devices and their history stay.
    func loadFixtures(_ fixtures: RegionFixtures) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try write { db in
            var position: Int64 = 0
            for merchant in fixtures.merchants {
                try db.run(
                    """
                    INSERT INTO merchants (id, api_key, document) VALUES (?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET api_key = excluded.api_key, document = excluded.document
                    """,
                    [.text(merchant.id), .text(merchant.apiKey), .text(String(decoding: try encoder.encode(merchant), as: UTF8.self))])
                for terminal in merchant.terminals {
                    position += 1
                    try db.run(
                        """
                        INSERT INTO terminals (id, merchant_id, position, profile) VALUES (?, ?, ?, ?)
                        ON CONFLICT(id) DO UPDATE SET merchant_id = excluded.merchant_id, position = excluded.position,
                                                      profile = excluded.profile
                        """,
                        [.text(terminal.id), .text(merchant.id), .integer(position),
                         .text(String(decoding: try encoder.encode(terminal), as: UTF8.self))])
                }
            }
        }
    }

    /// POST /_sandbox/reset: every device, session, code, token, mail and transaction is forgotten.
    func reset(_ fixtures: RegionFixtures) throws {
        try write { db in
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
            for table in ["webhook_attempts", "webhook_events", "webhook_endpoints", "receipts", "checkouts", "idempotency_keys", "card_reads"] {
                try db.run("DELETE FROM \(table)")
            }
            try db.execute("DROP TABLE transactions")
            for statement in schema { try db.execute(statement) }
            for table in ["transaction_hours", "transaction_days", "sessions", "support_numbers", "registration_tokens", "challenges", "devices", "mailbox", "terminals", "merchants"] {
                try db.run("DELETE FROM \(table)")
            }
        }
        try loadFixtures(fixtures)
    }
}
