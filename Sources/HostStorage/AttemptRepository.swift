import SandboxStore

/// All SQL about wrong codes typed (`attempt_failures`), which replicas on one PostgreSQL
/// database count together.
package struct AttemptRepository {
    package let db: Connection

    /// The times of the latest `limit` failures of `key` after `since`, the latest first.
    package func failures(kind: String, key: String, after since: Int64, limit: Int) throws -> [Int64] {
        try db.query(
            "SELECT at FROM attempt_failures WHERE kind = ? AND key = ? AND at > ? ORDER BY at DESC LIMIT ?",
            [.text(kind), .text(key), .integer(since), .integer(Int64(limit))]
        ).map { try $0["at"] }
    }

    package func record(kind: String, key: String, at now: Int64) throws {
        try db.run("INSERT INTO attempt_failures (kind, key, at) VALUES (?, ?, ?)", [.text(kind), .text(key), .integer(now)])
    }

    /// Forgets the failures that no window reaches any more.
    package func prune(before cutoff: Int64) throws {
        try db.run("DELETE FROM attempt_failures WHERE at < ?", [.integer(cutoff)])
    }
}

extension Connection {
    package var attempts: AttemptRepository { AttemptRepository(db: self) }
}
