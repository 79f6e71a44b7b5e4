import CSQLite
import Foundation

/// Whole-database copies, both ways through SQLite's online backup API: a consistent copy into a
/// new file, and such a copy brought back over a live database.
///
/// ```swift
/// try store.read { db in try db.backup(to: "snapshots/before.sqlite") }
/// try store.restore(from: "snapshots/before.sqlite")
/// ```
extension Connection {
    /// Copies the main database, as one read transaction sees it, into a new file at `path`.
    ///
    /// The copy is a database of its own (in rollback-journal mode, whole in its one file): it
    /// can be opened, moved, or brought back with ``restore(from:)``.
    ///
    /// - Throws: ``DatabaseError/misuse`` when a file is at `path` already; ``DatabaseError`` for
    ///   SQLite's failures (the partial file is removed).
    public func backup(to path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw DatabaseError.misuse.with(message: "\(path) exists: a copy goes to a new file")
        }
        if postgres != nil {
            do { return try postgresBackup(to: path) } catch {
                try? FileManager.default.removeItem(atPath: path)
                throw error
            }
        }
        do {
            let destination = try Connection(path: path, access: .readWrite)
            guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
                throw destination.lastError ?? DatabaseError.sqlite.with(message: "the backup of \(self.path) could not start")
            }
            let step = sqlite3_backup_step(backup, -1)  // every page, in one read transaction of the source
            let finish = sqlite3_backup_finish(backup)
            guard step == SQLITE_DONE, finish == SQLITE_OK else {
                throw DatabaseError.sqlite(code: step == SQLITE_DONE ? finish : step, db: destination.handle, sql: nil)
            }
            // The source's WAL flag came with its header: the copy keeps everything in its one file.
            try destination.execute("PRAGMA journal_mode = DELETE")
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }

    /// Replaces this whole database with the copy at `path`, page by page through SQLite's backup
    /// API, in one write transaction: readers see the old contents or the new, never a mix. Runs
    /// with no transaction open (``Store/restore(from:)`` runs it so on the writer).
    ///
    /// Every row, rowid, `sqlite_sequence` entry and the `user_version` are the copy's; triggers
    /// do not fire. The database keeps its WAL mode.
    ///
    /// - Throws: ``DatabaseError/schemaMismatch`` when the copy's tables, indexes, triggers and
    ///   views are not this database's (by their SQL) or its `user_version` differs (nothing
    ///   changes); ``DatabaseError/misuse`` inside a transaction.
    public func restore(from path: String) throws {
        if postgres != nil { return try postgresRestore(from: path) }
        guard !isInTransaction else {
            throw DatabaseError.misuse.with(message: "restore(from:) replaces the whole database: it runs outside a transaction")
        }
        let source = try Connection(path: path, access: .readOnly)
        let schemaSQL = """
            SELECT type, name, sql FROM sqlite_master
            WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type, name
            """
        let mine = try query(schemaSQL).map { try SchemaObject($0) }
        let theirs = try source.query(schemaSQL).map { try SchemaObject($0) }
        guard mine == theirs else {
            let differing = Set(mine).symmetricDifference(theirs).map(\.name).sorted()
            throw DatabaseError.schemaMismatch.with(message: "\(path) is not a copy of this schema (differs in \(differing.joined(separator: ", ")))")
        }
        let version: Int64 = try query("PRAGMA user_version")[0][0]
        let theirVersion: Int64 = try source.query("PRAGMA user_version")[0][0]
        guard version == theirVersion else {
            throw DatabaseError.schemaMismatch.with(message: "\(path) has schema version \(theirVersion), this database \(version)")
        }
        guard let backup = sqlite3_backup_init(handle, "main", source.handle, "main") else {
            throw lastError ?? DatabaseError.sqlite.with(message: "the restore from \(path) could not start")
        }
        let step = sqlite3_backup_step(backup, -1)  // every page, in one write transaction of this database
        let finish = sqlite3_backup_finish(backup)
        guard step == SQLITE_DONE, finish == SQLITE_OK else {
            throw DatabaseError.sqlite(code: step == SQLITE_DONE ? finish : step, db: handle, sql: nil)
        }
    }

    /// A table, index, trigger or view, by its SQL.
    private struct SchemaObject: Hashable {
        var type: String
        var name: String
        var sql: String

        init(_ row: Row) throws {
            type = try row["type"]
            name = try row["name"]
            sql = try row["sql"]
        }
    }
}
