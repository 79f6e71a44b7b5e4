import SandboxStore

/// Login sessions, by the SHA-256 of their bearer token (the token itself is never stored).
package struct SessionRepository {
    package let db: Connection

    /// A session as stored.
    package struct Session {
        package let deviceID: String
        package let terminalID: String
        package let expiresAt: Int64
        package let endedAt: Int64?
    }

    package func session(tokenHash: String) throws -> Session? {
        try db.query("SELECT * FROM sessions WHERE token_hash = ?", [.text(tokenHash)]).first.map { row in
            Session(
                deviceID: try row["device_id"], terminalID: try row["terminal_id"], expiresAt: try row["expires_at"],
                endedAt: try row["ended_at"])
        }
    }

    package func add(tokenHash: String, device: String, terminal: String, at now: Int64, expiresAt: Int64) throws {
        try db.run(
            "INSERT INTO sessions (token_hash, device_id, terminal_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
            [.text(tokenHash), .text(device), .text(terminal), .integer(now), .integer(expiresAt)])
    }

    /// Ends every open session of a device.
    package func end(device: String, at now: Int64) throws {
        try db.run("UPDATE sessions SET ended_at = ? WHERE device_id = ? AND ended_at IS NULL", [.integer(now), .text(device)])
    }

    package func end(tokenHash: String, at now: Int64) throws {
        try db.run("UPDATE sessions SET ended_at = ? WHERE token_hash = ? AND ended_at IS NULL", [.integer(now), .text(tokenHash)])
    }
}
