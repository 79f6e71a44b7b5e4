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

    /// A session with its device (nil when the device row is gone), in one statement.
    package func withDevice(tokenHash: String) throws -> (session: Session, device: DeviceRecord?)? {
        try db.query(
            """
            SELECT s.device_id AS session_device_id, s.terminal_id AS session_terminal_id, s.expires_at AS session_expires_at,
                   s.ended_at AS session_ended_at, d.*
            FROM sessions s LEFT JOIN devices d ON d.id = s.device_id WHERE s.token_hash = ?
            """, [.text(tokenHash)]
        ).first.map { row in
            let session = Session(
                deviceID: try row["session_device_id"], terminalID: try row["session_terminal_id"],
                expiresAt: try row["session_expires_at"], endedAt: try row["session_ended_at"])
            return (session, try (row["id"] as String?).map { _ in try DeviceRecord(row) })
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
