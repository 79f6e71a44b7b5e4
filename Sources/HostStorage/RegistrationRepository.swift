import SandboxStore

/// Registrations under way: challenge codes with the back-office codes that confirm them
/// (portal registration), and registration tokens (backend-to-backend registration).
package struct RegistrationRepository {
    package let db: Connection

    // MARK: - Challenges and back-office codes

    /// A challenge as stored; the back-office fields are set once the portal confirms it.
    package struct Challenge {
        package let code: String
        package let deviceID: String
        package let deviceModel: String
        package let createdAt: Int64
        package let expiresAt: Int64
        package let terminalID: String?
        package let backOfficeCode: String?
        package let backOfficeExpiresAt: Int64?
        package let completedAt: Int64?

        package init(_ row: Row) throws {
            code = try row["code"]
            deviceID = try row["device_id"]
            deviceModel = try row["device_model"]
            createdAt = try row["created_at"]
            expiresAt = try row["expires_at"]
            terminalID = try row["terminal_id"]
            backOfficeCode = try row["backoffice_code"]
            backOfficeExpiresAt = try row["backoffice_expires_at"]
            completedAt = try row["completed_at"]
        }
    }

    package func challengeExists(_ code: String) throws -> Bool {
        try !db.query("SELECT 1 FROM challenges WHERE code = ?", [.text(code)]).isEmpty
    }

    package func addChallenge(_ code: String, device: String, model: String, at now: Int64, expiresAt: Int64) throws {
        try db.run(
            "INSERT INTO challenges (code, device_id, device_model, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
            [.text(code), .text(device), .text(model), .integer(now), .integer(expiresAt)])
    }

    package func challenge(code: String) throws -> Challenge? {
        try db.query("SELECT * FROM challenges WHERE code = ?", [.text(code)]).first.map(Challenge.init)
    }

    package func challenge(backOfficeCode: String) throws -> Challenge? {
        try db.query("SELECT * FROM challenges WHERE backoffice_code = ?", [.text(backOfficeCode)]).first.map(Challenge.init)
    }

    package func backOfficeCodeExists(_ code: String) throws -> Bool {
        try !db.query("SELECT 1 FROM challenges WHERE backoffice_code = ?", [.text(code)]).isEmpty
    }

    /// The portal confirmed a challenge for a terminal with a back-office code.
    package func confirm(challenge code: String, terminal: String, backOfficeCode: String, expiresAt: Int64) throws {
        try db.run(
            "UPDATE challenges SET terminal_id = ?, backoffice_code = ?, backoffice_expires_at = ? WHERE code = ?",
            [.text(terminal), .text(backOfficeCode), .integer(expiresAt), .text(code)])
    }

    package func complete(challenge code: String, at now: Int64) throws {
        try db.run("UPDATE challenges SET completed_at = ? WHERE code = ?", [.integer(now), .text(code)])
    }

    // MARK: - Registration tokens

    /// A registration token as stored.
    package struct Token {
        /// `issued`, `verified`, `begun` or `used`.
        package let state: String
        package let terminalID: String
        package let expiresAt: Int64
        /// The device that began the registration, and its model.
        package let deviceID: String?
        package let deviceModel: String?
    }

    package func addToken(_ token: String, terminal: String, email: String?, at now: Int64, expiresAt: Int64) throws {
        try db.run(
            """
            INSERT INTO registration_tokens (token, terminal_id, created_at, expires_at, state, email)
            VALUES (?, ?, ?, ?, 'issued', ?)
            """, [.text(token), .text(terminal), .integer(now), .integer(expiresAt), email.map(DatabaseValue.text) ?? .null])
    }

    package func token(_ token: String) throws -> Token? {
        try db.query("SELECT * FROM registration_tokens WHERE token = ?", [.text(token)]).first.map { row in
            Token(
                state: try row["state"], terminalID: try row["terminal_id"], expiresAt: try row["expires_at"],
                deviceID: try row["device_id"], deviceModel: try row["device_model"])
        }
    }

    package func markVerified(token: String) throws {
        try db.run("UPDATE registration_tokens SET state = 'verified' WHERE token = ?", [.text(token)])
    }

    package func begin(token: String, device: String, model: String) throws {
        try db.run(
            "UPDATE registration_tokens SET state = 'begun', device_id = ?, device_model = ? WHERE token = ?",
            [.text(device), .text(model), .text(token)])
    }

    /// The unused registration token of a terminal that is still valid at `now` (the newest),
    /// which locks the terminal against registration by challenge code.
    package func liveToken(terminal: String, at now: Int64) throws -> (token: String, expiresAt: Int64)? {
        try db.query(
            """
            SELECT token, expires_at FROM registration_tokens
            WHERE terminal_id = ? AND state <> 'used' AND expires_at > ? ORDER BY expires_at DESC LIMIT 1
            """, [.text(terminal), .integer(now)]
        ).first.map { (try $0["token"], try $0["expires_at"]) }
    }

    /// Gives a token a new expiry; the value stays.
    package func refresh(token: String, expiresAt: Int64) throws {
        try db.run("UPDATE registration_tokens SET expires_at = ? WHERE token = ?", [.integer(expiresAt), .text(token)])
    }

    /// Where the token was last e-mailed.
    package func setEmail(token: String, email: String) throws {
        try db.run("UPDATE registration_tokens SET email = ? WHERE token = ?", [.text(email), .text(token)])
    }

    /// Forgets a token nobody registered with: it is invalid from now on, and its terminal is free
    /// of it.
    package func remove(token: String) throws {
        try db.run("DELETE FROM registration_tokens WHERE token = ? AND state <> 'used'", [.text(token)])
    }

    /// Forgets every token of `terminal` that nobody registered with (a new one replaces them).
    package func removeUnused(terminal: String) throws {
        try db.run("DELETE FROM registration_tokens WHERE terminal_id = ? AND state <> 'used'", [.text(terminal)])
    }

    package func markUsed(token: String) throws {
        try db.run("UPDATE registration_tokens SET state = 'used' WHERE token = ?", [.text(token)])
    }
}
