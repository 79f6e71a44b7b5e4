import SandboxStore
import Synchronization

/// All SQL of the request journal replicas share (`request_journal`).
package struct JournalRepository {
    package let db: Connection

    /// Appends entries (surface, request id, JSON), oldest first, and keeps the latest `capacity`
    /// entries of each surface in `trimming` (a trim reads `capacity` index entries: the caller
    /// asks for one now and then, not on every append).
    package func append(
        _ entries: [(surface: String, requestId: String, json: String)], capacity: Int, trimming: Set<String>
    ) throws {
        for entry in entries {
            try db.run(
                "INSERT INTO request_journal (surface, request_id, entry) VALUES (?, ?, ?)",
                [.text(entry.surface), .text(entry.requestId), .text(entry.json)])
        }
        for surface in trimming.sorted() {
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

/// When a process trims the journal it shares with other replicas: a surface is trimmed along with
/// an append once this process added a tenth of the capacity to it since it last trimmed it, so a
/// surface holds the latest `capacity` entries and at most a tenth more per replica. A trim reads
/// `capacity` index entries: on every append it was a third of the database's time per card sale.
package final class JournalTrimming: Sendable {
    private let added = Mutex<[String: Int]>([:])

    package init() {}

    /// The surfaces to trim to `capacity` in the write that appends entries of `surfaces`.
    package func due(adding surfaces: [String], capacity: Int) -> Set<String> {
        added.withLock { added in
            for surface in surfaces { added[surface, default: 0] += 1 }
            return Set(added.filter { $0.value >= max(1, capacity / 10) }.keys)
        }
    }

    /// `surfaces` were trimmed (their write committed).
    package func trimmed(_ surfaces: Set<String>) {
        added.withLock { added in for surface in surfaces { added[surface] = 0 } }
    }
}

extension Connection {
    package var journal: JournalRepository { JournalRepository(db: self) }
}
