import SandboxStore

/// All SQL of the request journal replicas share (`request_journal`).
package struct JournalRepository {
    package let db: Connection

    /// Appends entries (surface, request id, JSON), oldest first, and keeps the latest `capacity`
    /// of each surface they name.
    package func append(_ entries: [(surface: String, requestId: String, json: String)], capacity: Int) throws {
        for entry in entries {
            try db.run(
                "INSERT INTO request_journal (surface, request_id, entry) VALUES (?, ?, ?)",
                [.text(entry.surface), .text(entry.requestId), .text(entry.json)])
        }
        for surface in Set(entries.map(\.surface)) {
            try db.run(
                """
                DELETE FROM request_journal WHERE surface = ?1 AND seq <= (
                    SELECT seq FROM request_journal WHERE surface = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)
                """, [.text(surface), .integer(Int64(capacity))])
        }
    }

    /// The latest `limit` entries' JSON, newest first.
    package func recent(limit: Int) throws -> [String] {
        try db.query("SELECT entry FROM request_journal ORDER BY seq DESC LIMIT ?", [.integer(Int64(limit))]).map { try $0["entry"] }
    }

    package func find(requestId: String) throws -> String? {
        try db.query("SELECT entry FROM request_journal WHERE request_id = ? ORDER BY seq DESC LIMIT 1", [.text(requestId)]).first
            .map { try $0["entry"] }
    }

    package func deleteAll() throws {
        try db.run("DELETE FROM request_journal")
    }
}

extension Connection {
    package var journal: JournalRepository { JournalRepository(db: self) }
}
