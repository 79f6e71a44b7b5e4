import CSQLite

/// The one error type of `SandboxStore`.
///
/// Each failure has a stable kind, exposed as a `static let`, so callers match it with `==`
/// or `catch`. A failure that comes from SQLite keeps SQLite's extended result code, its
/// message and the SQL that was running, as GRDB's `DatabaseError` does, for logs.
///
/// ```swift
/// do {
///     try store.write { db in try db.run("INSERT INTO merchants(id) VALUES (?)", [.text(id)]) }
/// } catch let error as DatabaseError where error.isConstraintViolation {
///     // Duplicate id: answer 409 instead of 500.
/// }
/// ```
///
/// Equality compares the kind only: a `UNIQUE` and a `FOREIGN KEY` failure are both
/// `.constraintViolation`, because callers branch on the kind and log the detail
/// (``extendedResultCode`` tells them apart).
public struct DatabaseError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case sqlite
        case constraintViolation
        case busy
        case schemaTooNew
        case invalidMigrations
        case columnNotFound
        case typeMismatch
        case misuse
        case schemaMismatch
        case postgres
        case serializationFailure
    }

    private let code: Code

    /// SQLite's extended result code (for example 2067, `SQLITE_CONSTRAINT_UNIQUE`), or `nil`
    /// when the failure was detected by this module rather than by SQLite.
    public let extendedResultCode: Int?

    /// Why the operation failed, in words for a log line (SQLite's `sqlite3_errmsg` when it is SQLite's).
    public let message: String

    /// The SQL that failed, when there was one.
    public let sql: String?

    /// PostgreSQL's SQLSTATE (for example `23505`, a unique violation), when the failure is PostgreSQL's.
    public let sqlState: String?

    private init(_ code: Code, message: String, extendedResultCode: Int? = nil, sql: String? = nil, sqlState: String? = nil) {
        self.code = code
        self.message = message
        self.extendedResultCode = extendedResultCode
        self.sql = sql
        self.sqlState = sqlState
    }

    /// SQLite's primary result code (the low byte of ``extendedResultCode``, for example 19, `SQLITE_CONSTRAINT`).
    public var resultCode: Int? { extendedResultCode.map { $0 & 0xFF } }

    /// True for any `UNIQUE`, `PRIMARY KEY`, `NOT NULL`, `CHECK` or `FOREIGN KEY` failure.
    public var isConstraintViolation: Bool { code == .constraintViolation }

    /// Whether SQLite found no room to write (`SQLITE_FULL`: the disk, or the database's page limit, is full).
    public var isStorageFull: Bool { resultCode == Int(SQLITE_FULL) || sqlState == "53100" }

    /// Whether running the whole transaction again may succeed: PostgreSQL found it could not be
    /// serialized with another one (`40001`), or chose it as a deadlock's victim (`40P01`).
    public var isRetryable: Bool { code == .serializationFailure }

    /// SQLite reported a failure that has no more specific kind; ``extendedResultCode`` says which.
    public static let sqlite = DatabaseError(.sqlite, message: "SQLite failure")

    /// A constraint (`UNIQUE`, `PRIMARY KEY`, `NOT NULL`, `CHECK`, `FOREIGN KEY`) refused the change.
    public static let constraintViolation = DatabaseError(.constraintViolation, message: "constraint violation")

    /// The database stayed locked by another connection for longer than the busy timeout.
    public static let busy = DatabaseError(.busy, message: "database is busy")

    /// The database file was written by a newer build: its schema version is above every
    /// migration this code knows, so opening it could corrupt it.
    public static let schemaTooNew = DatabaseError(.schemaTooNew, message: "database schema is newer than this build")

    /// The migration list itself is wrong: a version below 1 or a version used twice.
    public static let invalidMigrations = DatabaseError(.invalidMigrations, message: "invalid migration list")

    /// A row has no column with the requested name or index.
    public static let columnNotFound = DatabaseError(.columnNotFound, message: "no such column")

    /// A column holds a value that cannot become the requested Swift type (for example text read as `Int64`).
    public static let typeMismatch = DatabaseError(.typeMismatch, message: "type mismatch")

    /// The API was used in a way it does not allow (for example the wrong number of bound values).
    public static let misuse = DatabaseError(.misuse, message: "misuse")

    /// A copy of a database (a snapshot) does not have this database's schema: it was saved by
    /// another build, or of another kind of database. Nothing was changed.
    public static let schemaMismatch = DatabaseError(.schemaMismatch, message: "the copy's schema is not this database's")

    /// PostgreSQL reported a failure that has no more specific kind; ``sqlState`` says which.
    public static let postgres = DatabaseError(.postgres, message: "PostgreSQL failure")

    /// PostgreSQL could not serialize the transaction with a concurrent one (or broke a
    /// deadlock with it): nothing of it is kept, and running it again may succeed (``isRetryable``).
    public static let serializationFailure = DatabaseError(.serializationFailure, message: "could not serialize access")

    /// The same kind with a more specific message (and SQL, if given).
    func with(message: String, sql: String? = nil) -> DatabaseError {
        DatabaseError(code, message: message, extendedResultCode: extendedResultCode, sql: sql ?? self.sql, sqlState: sqlState)
    }

    /// An error from a PostgreSQL SQLSTATE: class 23 is a constraint, 40001 and 40P01 are retryable,
    /// 55P03 (a lock not available) is busy.
    static func postgres(state: String?, message: String, sql: String?) -> DatabaseError {
        let kind: Code =
            switch state {
            case let s? where s.hasPrefix("23"): .constraintViolation
            case "40001", "40P01": .serializationFailure
            case "55P03": .busy
            default: .postgres
            }
        return DatabaseError(kind, message: message, sql: sql, sqlState: state)
    }

    /// An error from an SQLite result code, with the connection's current message.
    ///
    /// The message is read from `db` at once: the next call on that connection replaces it.
    static func sqlite(code: Int32, db: OpaquePointer?, sql: String?) -> DatabaseError {
        let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        return sqlite(code: code, message: message, sql: sql)
    }

    /// An error from an SQLite result code and an explicit message.
    static func sqlite(code: Int32, message: String, sql: String?) -> DatabaseError {
        let kind: Code
        switch code & 0xFF {
        case SQLITE_CONSTRAINT: kind = .constraintViolation
        case SQLITE_BUSY, SQLITE_LOCKED: kind = .busy
        default: kind = .sqlite
        }
        return DatabaseError(kind, message: message, extendedResultCode: Int(code), sql: sql)
    }

    public static func == (lhs: DatabaseError, rhs: DatabaseError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    public var description: String {
        var text = "DatabaseError.\(code.rawValue)"
        if let extendedResultCode { text += "(\(extendedResultCode))" }
        if let sqlState { text += "(\(sqlState))" }
        text += ": \(message)"
        if let sql { text += " [SQL: \(sql)]" }
        return text
    }
}
