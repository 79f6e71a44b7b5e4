/// One numbered step of a database schema.
///
/// Versions start at 1 and only grow; a migration, once shipped, never changes, because
/// databases already past it will not run it again. Put the next change in the next version.
///
/// ```swift
/// let migrations = [
///     Migration(version: 1, name: "payments", sql: """
///         CREATE TABLE payments(id TEXT PRIMARY KEY, amount INTEGER NOT NULL);
///         """),
///     Migration(version: 2, name: "payment notes", sql: "ALTER TABLE payments ADD COLUMN note TEXT;"),
/// ]
/// ```
///
/// The SQL may hold several statements. It must not contain `BEGIN`/`COMMIT`: the migrator
/// wraps each migration in its own transaction.
public struct Migration: Sendable, Hashable {
    /// The schema version this migration brings the database to.
    public let version: Int

    /// A short description for logs and errors.
    public let name: String

    /// The SQL script to run.
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}
