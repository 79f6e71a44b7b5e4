import CSQLite

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One database connection, SQLite's (the embedded default) or PostgreSQL's: run SQL, query
/// rows, reuse compiled statements.
///
/// A `Connection` owns its `sqlite3` handle (or libpq connection) and closes it when released. It is not
/// `Sendable`: one thread uses it at a time. Code in the sandbox gets one from ``Store``
/// (``Store/write(_:)`` and ``Store/read(_:)``) rather than opening its own.
///
/// ```swift
/// try db.run("INSERT INTO payments(id, amount) VALUES (?, ?)", ["p_1", 1250])
/// let id = db.lastInsertRowID
/// let rows = try db.query("SELECT amount FROM payments WHERE id = ?", ["p_1"])
/// let amount: Int64 = try rows[0]["amount"]
/// ```
///
/// ``run(_:_:)`` and ``query(_:_:)`` keep each SQL text compiled in a per-connection cache,
/// so write SQL with `?` placeholders, never with values spliced in. On PostgreSQL the same SQL
/// runs through ``PostgresDialect/translate(_:)``.
public final class Connection {
    /// The database engine beneath.
    public enum Engine: Sendable {
        case sqlite
        case postgres
    }

    /// The engine this connection talks to.
    public var engine: Engine { postgres == nil ? .sqlite : .postgres }

    /// The PostgreSQL connection, or nil on SQLite.
    let postgres: PostgresSession?

    /// How a connection may touch its file.
    public enum Access: Sendable {
        /// Read and write; the file is created if it does not exist.
        case readWrite
        /// Read only; the file must exist. Store readers use this so a bug cannot write outside the writer's lock.
        case readOnly
    }

    /// SQLite's last error on this connection (its extended code and message), or nil when the
    /// last call succeeded.
    var lastError: DatabaseError? {
        guard let handle else { return nil }
        let code = sqlite3_extended_errcode(handle)
        return code == SQLITE_OK || code == SQLITE_ROW || code == SQLITE_DONE ? nil : DatabaseError.sqlite(code: code, db: handle, sql: nil)
    }

    /// SQLite's handle; nil on PostgreSQL, where what needs it (``Statement``, copies through the
    /// backup API, checkpoints) does not run.
    let handle: OpaquePointer!

    /// The path this connection opened (`":memory:"` for a private in-memory database), or the
    /// PostgreSQL URL it connected to, its password left out.
    public let path: String

    /// Compiled statements by SQL text; see ``cachedStatement(_:)``.
    private var statementCache: [SQLText: Statement] = [:]

    /// Enough for every distinct query a host runs; past it the cache is emptied, which only
    /// costs recompiling, and keeps a caller that splices values into SQL from growing it forever.
    private let statementCacheCapacity = 256

    /// Channels ``notify(_:)`` named in the transaction under way, told to the store's listeners
    /// once it commits (see ``Store/listen(_:_:)``); dropped when it rolls back.
    var notifications: Set<String> = []

    /// Wakes the store's listeners of `channel` once the transaction under way commits (as
    /// PostgreSQL's NOTIFY): a worker learns of its work when it is visible, without polling. A
    /// write that fails takes its notifications back with it.
    ///
    /// ```swift
    /// try db.run("INSERT INTO outbox …")
    /// db.notify("outbox")
    /// ```
    public func notify(_ channel: String) {
        notifications.insert(channel)
    }

    /// How many statements this connection has compiled since it opened.
    ///
    /// Exposed so tests (and curious operators) can see that the cache is reused: running
    /// the same SQL a hundred times compiles it once.
    public private(set) var preparedStatementCount = 0

    /// Opens (and for ``Access/readWrite`` creates) the database at `path`.
    ///
    /// Foreign keys are switched on and extended result codes are reported; journal mode and
    /// durability are the ``Store``'s business, since they belong to the file, not the connection.
    ///
    /// - Parameters:
    ///   - path: a file path, or `":memory:"` for a private in-memory database.
    ///   - access: read-write (default) or read-only.
    ///   - busyTimeout: how long a statement waits for another connection's lock before
    ///     failing with ``DatabaseError/busy``.
    /// - Throws: ``DatabaseError`` when the file cannot be opened.
    public init(path: String, access: Access = .readWrite, busyTimeout: Duration = .seconds(5)) throws {
        var flags: Int32 = SQLITE_OPEN_NOMUTEX  // one thread at a time is enforced by Swift, not by SQLite's mutex
        switch access {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = DatabaseError.sqlite(code: code, db: handle, sql: nil)
            sqlite3_close_v2(handle)
            throw error.with(message: "cannot open \(path): \(error.message)")
        }
        self.handle = handle
        self.path = path
        self.postgres = nil
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.milliseconds(busyTimeout))
        try execute("PRAGMA foreign_keys = ON")
    }

    /// Connects to PostgreSQL with a `postgres://` URL or a libpq connection string
    /// (`host=/tmp/pg dbname=sandbox`).
    ///
    /// - Throws: ``DatabaseError`` when the server cannot be reached or refuses the login.
    public init(postgres url: String) throws {
        self.postgres = try PostgresSession(conninfo: url)
        self.handle = nil
        self.path = Self.withoutPassword(url)
    }

    /// `postgres://user:secret@host/db` as `postgres://user@host/db`, for logs.
    static func withoutPassword(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url.range(of: "@", range: scheme.upperBound..<url.endIndex),
            let colon = url.range(of: ":", range: scheme.upperBound..<at.lowerBound)
        else { return url }
        return String(url[..<colon.lowerBound]) + String(url[at.lowerBound...])
    }

    deinit {
        // Finalize cached statements first; close_v2 then closes at once, or as soon as a
        // statement still held elsewhere is released.
        statementCache.removeAll()
        if let handle { sqlite3_close_v2(handle) }
    }

    /// Runs one or more SQL statements separated by `;`, with no parameters.
    ///
    /// For schema scripts, pragmas and transaction control. Nothing is cached.
    ///
    /// - Throws: ``DatabaseError`` from the first statement that fails; the ones before it stay run.
    public func execute(_ sql: String) throws {
        if let postgres { return try postgres.execute(sql) }
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(errorMessage)
            throw DatabaseError.sqlite(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// Compiles one SQL statement into a new ``Statement`` that the caller owns.
    ///
    /// - Throws: ``DatabaseError`` for a syntax error or an unknown table or column.
    public func prepare(_ sql: String) throws -> Statement {
        guard postgres == nil else { throw DatabaseError.misuse.with(message: "Statement is SQLite's; use run or query", sql: sql) }
        // The C string lives only inside withCString, and `tail` points into it: the check of
        // what follows the first statement has to happen in there too.
        let statement = try sql.withCString { text -> OpaquePointer in
            var statement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
            guard code == SQLITE_OK else {
                sqlite3_finalize(statement)
                throw DatabaseError.sqlite(code: code, db: handle, sql: sql)
            }
            guard let statement else {
                // Only whitespace or comments: SQLite compiles nothing.
                throw DatabaseError.misuse.with(message: "no SQL statement to prepare", sql: sql)
            }
            if let tail, tail.pointee != 0 {
                // A second statement would be ignored silently; say so instead. Compiling the
                // tail is the one way to tell a statement from trailing comments or semicolons.
                var extra: OpaquePointer?
                let extraCode = sqlite3_prepare_v2(handle, tail, -1, &extra, nil)
                if extraCode != SQLITE_OK || extra != nil {
                    sqlite3_finalize(extra)
                    sqlite3_finalize(statement)
                    throw DatabaseError.misuse.with(message: "prepare takes one statement; use execute for scripts", sql: sql)
                }
            }
            return statement
        }
        preparedStatementCount += 1
        return Statement(handle: statement, sql: sql)
    }

    /// The compiled statement for `sql` from this connection's cache, compiling it on first use.
    ///
    /// The statement is shared by every caller of the same SQL text on this connection:
    /// finish with it (``Statement/reset()``) before running the same SQL again.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[SQLText(sql)] {
            return statement
        }
        let statement = try prepare(sql)
        if statementCache.count >= statementCacheCapacity {
            statementCache.removeAll()
        }
        statementCache[SQLText(sql)] = statement
        return statement
    }

    /// Runs one statement with bound values, through the statement cache.
    ///
    /// ```swift
    /// try db.run("UPDATE terminals SET name = ? WHERE id = ?", [.text(name), .integer(id)])
    /// ```
    ///
    /// - Throws: ``DatabaseError``; ``DatabaseError/isConstraintViolation`` tells a refused change.
    public func run(_ sql: String, _ values: [DatabaseValue] = []) throws {
        if let postgres {
            _ = try postgres.query(sql, values)
            return
        }
        try cachedStatement(sql).run(values)
    }

    /// Runs one query with bound values, through the statement cache, and returns every row.
    public func query(_ sql: String, _ values: [DatabaseValue] = []) throws -> [Row] {
        if let postgres { return try postgres.query(sql, values) }
        return try cachedStatement(sql).query(values)
    }

    /// The rowid of the most recent successful `INSERT` on this connection (on PostgreSQL, the
    /// value the last sequence of this session handed out: a `BIGSERIAL` key's).
    public var lastInsertRowID: Int64 {
        guard let postgres else { return sqlite3_last_insert_rowid(handle) }
        return (try? postgres.query("SELECT lastval() AS id", []).first?["id"] as Int64?) ?? 0
    }

    /// How many rows the most recent `INSERT`, `UPDATE` or `DELETE` changed.
    public var changes: Int { postgres?.changes ?? Int(sqlite3_changes64(handle)) }

    /// True while a transaction is open on this connection.
    public var isInTransaction: Bool { postgres?.isInTransaction ?? (sqlite3_get_autocommit(handle) == 0) }

    /// How many statements sit in the cache now.
    public var cachedStatementCount: Int { statementCache.count }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }
}

/// SQL text as a cache key, hashed by its length and its first and last 32 bytes: hashing the
/// whole text (a 40-column upsert is 1.5 kB) cost more than a lookup should. Texts with the same
/// length, start and end only share a bucket; equality compares the whole UTF-8, byte for byte
/// (SQLite compiles bytes; Swift's `==` would match canonically equivalent spellings too).
private struct SQLText: Hashable {
    let sql: String

    init(_ sql: String) { self.sql = sql }

    static func == (lhs: SQLText, rhs: SQLText) -> Bool {
        var (left, right) = (lhs.sql, rhs.sql)
        return left.withUTF8 { a in
            right.withUTF8 { b in a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0) }
        }
    }

    func hash(into hasher: inout Hasher) {
        var sql = sql  // withUTF8 needs a mutable copy; a native string is not copied
        sql.withUTF8 { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(32))))
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(32))))
        }
    }
}
