import Foundation
import SandboxCore
import SandboxStore

/// Merchants, terminals (both written from the fixtures), the devices registered on them and
/// the devices' support numbers.
package struct TerminalRepository {
    package let db: Connection

    // MARK: - Fixtures

    /// Writes the fixtures: new merchants and terminals appear, changed ones are updated, in
    /// fixture order (which "next free terminal" follows).
    package func save(_ merchants: [Merchant]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var position: Int64 = 0
        for merchant in merchants {
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

    /// Every merchant as stored, in the order they were first written.
    package func merchants() throws -> [Merchant] {
        try db.query("SELECT document FROM merchants ORDER BY rowid").map { row in
            try JSONDecoder().decode(Merchant.self, from: Data((try row["document"] as String).utf8))
        }
    }

    /// The merchant an API key belongs to.
    package func merchant(apiKey: String) throws -> String? {
        try db.query("SELECT id FROM merchants WHERE api_key = ?", [.text(apiKey)]).first.map { try $0["id"] }
    }

    // MARK: - Terminals

    /// The merchant's terminals with no registered device, in fixture order.
    package func freeTerminals(merchant: String) throws -> [TerminalRecord] {
        try db.query(
            """
            SELECT * FROM terminals t WHERE merchant_id = ?
              AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.terminal_id = t.id AND d.state = 'registered')
            ORDER BY position
            """, [.text(merchant)]
        ).map(TerminalRecord.init)
    }

    /// Each terminal with its registered device, the end of that device's latest session and
    /// the expiry of the terminal's newest unused registration token (`?` is now).
    private static let stateQuery = """
        SELECT t.id, t.merchant_id, t.profile, d.id AS device_id, d.model, d.failed_attempts, d.locked, d.last_login_at,
            d.registered_at,
            (SELECT MAX(s.expires_at) FROM sessions s WHERE s.device_id = d.id AND s.ended_at IS NULL) AS session_expires_at,
            (SELECT MAX(r.expires_at) FROM registration_tokens r
             WHERE r.terminal_id = t.id AND r.state <> 'used' AND r.expires_at > ?) AS token_expires_at
        FROM terminals t LEFT JOIN devices d ON d.terminal_id = t.id AND d.state = 'registered'
        """

    /// Terminals of one merchant, or of every merchant, with their registered devices, in fixture order.
    package func states(merchant: String?, at now: Int64) throws -> [TerminalState] {
        let rows =
            if let merchant {
                try db.query(Self.stateQuery + " WHERE t.merchant_id = ? ORDER BY t.position", [.integer(now), .text(merchant)])
            } else {
                try db.query(Self.stateQuery + " ORDER BY t.position", [.integer(now)])
            }
        return try rows.map { try TerminalState($0, at: now) }
    }

    /// One terminal with its registered device.
    package func state(terminal id: String, at now: Int64) throws -> TerminalState? {
        try db.query(Self.stateQuery + " WHERE t.id = ?", [.integer(now), .text(id)]).first.map { try TerminalState($0, at: now) }
    }

    // MARK: - Devices

    package func device(_ id: String) throws -> DeviceRecord? {
        try db.query("SELECT * FROM devices WHERE id = ?", [.text(id)]).first.map(DeviceRecord.init)
    }

    package func hasRegisteredDevice(terminal: String) throws -> Bool {
        try !db.query("SELECT 1 FROM devices WHERE terminal_id = ? AND state = 'registered'", [.text(terminal)]).isEmpty
    }

    /// The id of the device registered on a terminal.
    package func registeredDevice(terminal: String) throws -> String? {
        try db.query("SELECT id FROM devices WHERE terminal_id = ? AND state = 'registered'", [.text(terminal)]).first.map { try $0["id"] }
    }

    /// Registers a device (new, or registered before) onto a terminal, as new: no login yet, no
    /// wrong codes, no lock.
    package func register(
        device: String, model: String, terminal: String, secretHash: String, pinSalt: String?, pinHash: String?, at now: Int64
    ) throws {
        try db.run(
            """
            INSERT INTO devices (id, model, terminal_id, state, secret_hash, pin_salt, pin_hash, failed_attempts, locked,
                                 registered_at, last_login_at, relinked_at, unregistered_reason)
            VALUES (?, ?, ?, 'registered', ?, ?, ?, 0, 0, ?, NULL, NULL, NULL)
            ON CONFLICT(id) DO UPDATE SET
                model = excluded.model, terminal_id = excluded.terminal_id, state = 'registered',
                secret_hash = excluded.secret_hash, pin_salt = excluded.pin_salt, pin_hash = excluded.pin_hash,
                failed_attempts = 0, locked = 0, registered_at = excluded.registered_at, last_login_at = NULL,
                relinked_at = NULL, unregistered_reason = NULL
            """,
            [.text(device), .text(model), .text(terminal), .text(secretHash), pinSalt.map(DatabaseValue.text) ?? .null,
             pinHash.map(DatabaseValue.text) ?? .null, .integer(now)])
    }

    package func unregister(device: String, reason: String) throws {
        try db.run(
            "UPDATE devices SET state = 'unregistered', unregistered_reason = ? WHERE id = ? AND state = 'registered'",
            [.text(reason), .text(device)])
    }

    /// A login: the wrong-code count starts again.
    package func recordLogin(device: String, at now: Int64) throws {
        try db.run("UPDATE devices SET failed_attempts = 0, last_login_at = ? WHERE id = ?", [.integer(now), .text(device)])
    }

    package func recordWrongPin(device: String, attempts: Int, locked: Bool) throws {
        try db.run(
            "UPDATE devices SET failed_attempts = ?, locked = ? WHERE id = ?",
            [.integer(Int64(attempts)), .integer(locked ? 1 : 0), .text(device)])
    }

    package func setPin(device: String, salt: String, hash: String) throws {
        try db.run("UPDATE devices SET pin_salt = ?, pin_hash = ?, failed_attempts = 0 WHERE id = ?", [.text(salt), .text(hash), .text(device)])
    }

    package func relink(device: String, at now: Int64) throws {
        try db.run("UPDATE devices SET relinked_at = ? WHERE id = ?", [.integer(now), .text(device)])
    }

    /// Clears the lock of a terminal's registered device.
    ///
    /// - Returns: false when the terminal has no registered device.
    package func unlock(terminal: String) throws -> Bool {
        try db.run("UPDATE devices SET locked = 0, failed_attempts = 0 WHERE terminal_id = ? AND state = 'registered'", [.text(terminal)])
        return db.changes == 1
    }

    // MARK: - Support numbers

    package func supportNumber(device: String) throws -> String? {
        try db.query("SELECT number FROM support_numbers WHERE device_id = ?", [.text(device)]).first.map { try $0["number"] }
    }

    package func supportNumberExists(_ number: String) throws -> Bool {
        try !db.query("SELECT 1 FROM support_numbers WHERE number = ?", [.text(number)]).isEmpty
    }

    package func addSupportNumber(_ number: String, device: String) throws {
        try db.run("INSERT INTO support_numbers (device_id, number) VALUES (?, ?)", [.text(device), .text(number)])
    }
}

package extension DeviceRecord {
    init(_ row: Row) throws {
        id = try row["id"]
        model = try row["model"]
        terminalID = try row["terminal_id"]
        registered = (try row["state"] as String) == "registered"
        secretHash = try row["secret_hash"]
        pinSalt = try row["pin_salt"]
        pinHash = try row["pin_hash"]
        failedAttempts = try row["failed_attempts"]
        locked = try row["locked"]
        registeredAt = try row["registered_at"]
        lastLoginAt = try row["last_login_at"]
    }
}

package extension TerminalRecord {
    init(_ row: Row) throws {
        self.init(
            id: try row["id"], merchantID: try row["merchant_id"],
            profile: try JSONDecoder().decode(TerminalProfile.self, from: Data((try row["profile"] as String).utf8)))
    }
}

package extension TerminalState {
    /// A row of ``TerminalRepository``'s terminal-and-device join.
    init(_ row: Row, at now: Int64) throws {
        let terminal = try TerminalRecord(row)
        let device: String? = try row["device_id"]
        let lastLogin: Int64? = try row["last_login_at"]
        let registeredAt: Int64? = try row["registered_at"]
        let sessionEnd: Int64? = try row["session_expires_at"]
        // Certificates last three months from the last login (or the registration).
        let certificates = (lastLogin ?? registeredAt).map { $0 + Lifetimes.certificate }
        self.init(
            terminalId: terminal.id, merchantId: terminal.merchantID, registered: device != nil,
            locked: (try row["locked"] as Int64?) == 1, deviceId: device, deviceModel: try row["model"],
            failedAttempts: Int(try row["failed_attempts"] as Int64? ?? 0), lastLoginAt: lastLogin.map(Wire.time),
            registerOptions: terminal.profile.registerOptions.map(\.rawValue), autoLogin: terminal.profile.autoLogin,
            registeredAt: registeredAt.map(Wire.time), sessionEndsAt: sessionEnd.flatMap { $0 > now ? Wire.time($0) : nil },
            certificatesExpireAt: certificates.map(Wire.time),
            tokenLockedUntil: (try row["token_expires_at"] as Int64?).map(Wire.time))
    }
}
