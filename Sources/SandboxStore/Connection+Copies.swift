import CSQLite
import Foundation

/// Whole-database copies: a consistent copy into a new file (SQLite's online backup API) and the
/// contents of such a copy brought back into a live database, inside the transaction under way.
///
/// ```swift
/// try store.read { db in try db.backup(to: "snapshots/before.sqlite") }
/// try store.write { db in try db.replaceContents(from: "snapshots/before.sqlite") }
/// ```
extension Connection {
    /// Copies the main database, as one read transaction sees it, into a new file at `path`.
    ///
    /// The copy is a database of its own (in rollback-journal mode, whole in its one file): it
    /// can be opened, moved, or brought back with ``replaceContents(from:)``.
    ///
    /// - Throws: ``DatabaseError/misuse`` when a file is at `path` already; ``DatabaseError`` for
    ///   SQLite's failures (the partial file is removed).
    public func backup(to path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw DatabaseError.misuse.with(message: "\(path) exists: a copy goes to a new file")
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

    /// Replaces every row of this database with the rows of the copy at `path`, in the
    /// transaction under way: readers see the old contents or the new, never a mix, and a failure
    /// rolls back with the transaction.
    ///
    /// Tables are recreated from their own SQL and filled (rowids kept), then indexes and
    /// triggers are made again, so triggers do not fire on the copied rows; `sqlite_sequence` and
    /// `user_version` are the copy's. Foreign keys are checked when the transaction commits.
    ///
    /// - Throws: ``DatabaseError/schemaMismatch`` when the copy's tables, indexes, triggers and
    ///   views are not this database's (by their SQL) or its `user_version` differs;
    ///   ``DatabaseError/misuse`` outside a write transaction.
    public func replaceContents(from path: String) throws {
        // BEGIN IMMEDIATE (every Store.write) holds the write lock from its start.
        guard sqlite3_txn_state(handle, "main") == SQLITE_TXN_WRITE else {
            throw DatabaseError.misuse.with(message: "replaceContents(from:) runs inside a write transaction")
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
        try execute("PRAGMA defer_foreign_keys = ON")
        let dependents = mine.filter { $0.type == "trigger" || $0.type == "view" }
        for object in dependents { try execute("DROP \(object.type.uppercased()) \(Self.quoted(object.name))") }
        let tables = mine.filter { $0.type == "table" }
        for table in tables { try execute("DROP TABLE \(Self.quoted(table.name))") }
        // Every table first: a row's foreign key names its parent table, which must exist (the
        // check itself waits for the commit).
        for table in tables { try execute(table.sql) }
        for table in tables { try copyRows(of: table.name, from: source) }
        if try !source.query("SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'").isEmpty {
            try execute("DELETE FROM sqlite_sequence")
            try copyRows(of: "sqlite_sequence", from: source, keepingRowID: false)
        }
        for object in mine where object.type == "index" { try execute(object.sql) }
        for object in dependents { try execute(object.sql) }
    }

    /// One table's rows, as `SELECT rowid, *` reads them, inserted here with the same values.
    private func copyRows(of table: String, from source: Connection, keepingRowID: Bool = true) throws {
        let name = Self.quoted(table)
        // A WITHOUT ROWID table has no rowid to keep.
        let keepsRowID = keepingRowID && (try? source.prepare("SELECT rowid FROM \(name) LIMIT 0")) != nil
        let select = try source.prepare("SELECT \(keepsRowID ? "rowid, " : "")* FROM \(name)")
        let columns = Int32(sqlite3_column_count(select.handle))
        let names = (0..<columns).map { Self.quoted(String(cString: sqlite3_column_name(select.handle, $0))) }
        let insert = try prepare(
            "INSERT INTO \(name) (\(names.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))")
        while true {
            let code = sqlite3_step(select.handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw DatabaseError.sqlite(code: code, db: source.handle, sql: "SELECT * FROM \(name)") }
            for index in 0..<columns {
                let bound = sqlite3_bind_value(insert.handle, index + 1, sqlite3_column_value(select.handle, index))
                guard bound == SQLITE_OK else { throw DatabaseError.sqlite(code: bound, db: handle, sql: "INSERT INTO \(name)") }
            }
            let inserted = sqlite3_step(insert.handle)
            guard inserted == SQLITE_DONE else { throw DatabaseError.sqlite(code: inserted, db: handle, sql: "INSERT INTO \(name)") }
            sqlite3_reset(insert.handle)
        }
    }

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
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
