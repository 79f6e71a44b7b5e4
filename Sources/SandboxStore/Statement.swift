import CSQLite

/// A compiled SQL statement: bind values, step through rows, reset.
///
/// Most code never sees one: ``Connection/run(_:_:)`` and ``Connection/query(_:_:)`` take
/// a cached statement, bind, run and reset it. Use a `Statement` directly to stream a large
/// result without holding every row in memory.
///
/// ```swift
/// let statement = try db.prepare("SELECT id FROM payments WHERE amount > ?")
/// try statement.bind([1000])
/// while let row = try statement.step() {
///     let id: String = try row["id"]
/// }
/// statement.reset()
/// ```
///
/// A statement belongs to the connection that prepared it and, like it, is used by one
/// thread at a time.
public final class Statement {
    let handle: OpaquePointer

    /// The SQL text this statement was compiled from.
    public let sql: String

    /// Column names of the result, kept with SQLite's count of re-preparations: after a schema
    /// change SQLite re-prepares the statement, and `SELECT *` may then gain or rename columns.
    private var columnNames: (names: [String], preparations: Int32)?

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The number of `?` placeholders in the SQL.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Replaces every binding with `values`, in placeholder order.
    ///
    /// - Throws: ``DatabaseError/misuse`` when the count differs from ``parameterCount``
    ///   (a missing value would otherwise bind as `NULL` without a word).
    public func bind(_ values: [DatabaseValue]) throws {
        guard values.count == parameterCount else {
            throw DatabaseError.misuse.with(
                message: "statement has \(parameterCount) placeholders but \(values.count) values were given",
                sql: sql
            )
        }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    private func bind(_ value: DatabaseValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            if text.utf8.isEmpty {
                // An empty buffer may have no base address, and a nil pointer would bind NULL.
                code = csqlite_bind_text_transient(handle, index, "", 0)
            } else {
                // Bind by byte length so the UTF-8 is taken as is; SQLite copies it (transient).
                var text = text
                code = text.withUTF8 { utf8 in
                    utf8.withMemoryRebound(to: CChar.self) { chars in
                        csqlite_bind_text_transient(handle, index, chars.baseAddress, Int32(chars.count))
                    }
                }
            }
        case .blob(let bytes):
            if bytes.isEmpty {
                // A nil pointer binds NULL; a zero-length zeroblob keeps an empty blob a blob.
                code = sqlite3_bind_zeroblob(handle, index, 0)
            } else {
                code = bytes.withUnsafeBytes { raw in
                    csqlite_bind_blob_transient(handle, index, raw.baseAddress, Int32(raw.count))
                }
            }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError.sqlite(code: code, db: sqlite3_db_handle(handle), sql: sql)
        }
    }

    /// Runs the statement to its next row.
    ///
    /// - Returns: the row, or `nil` when the statement is done (for `INSERT`/`UPDATE`/`DELETE`, at once).
    /// - Throws: ``DatabaseError`` for a constraint violation, a busy database or any other failure.
    public func step() throws -> Row? {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            return currentRow()
        case SQLITE_DONE:
            return nil
        default:
            // With sqlite3_prepare_v2 the step code is already the specific error.
            throw DatabaseError.sqlite(code: code, db: sqlite3_db_handle(handle), sql: sql)
        }
    }

    /// Rewinds the statement and clears its bindings, ready for the next use.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values`, runs the statement to completion and resets it.
    public func run(_ values: [DatabaseValue] = []) throws {
        defer { reset() }
        try bind(values)
        while try step() != nil {}
    }

    /// Binds `values`, collects every row and resets the statement.
    public func query(_ values: [DatabaseValue] = []) throws -> [Row] {
        defer { reset() }
        try bind(values)
        var rows: [Row] = []
        while let row = try step() {
            rows.append(row)
        }
        return rows
    }

    private func currentRow() -> Row {
        let count = sqlite3_column_count(handle)
        let preparations = sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
        let names: [String]
        if let cached = columnNames, cached.preparations == preparations, cached.names.count == count {
            names = cached.names
        } else {
            names = (0..<count).map { String(cString: sqlite3_column_name(handle, $0)) }
            columnNames = (names, preparations)
        }
        let values = (0..<count).map(columnValue)
        return Row(columns: names, values: values)
    }

    private func columnValue(at index: Int32) -> DatabaseValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            // Read the pointer before the length, as SQLite documents, and decode by length.
            let text = sqlite3_column_text(handle, index)
            let length = Int(sqlite3_column_bytes(handle, index))
            guard let text else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
        case SQLITE_BLOB:
            let bytes = sqlite3_column_blob(handle, index)
            let length = Int(sqlite3_column_bytes(handle, index))
            guard let bytes, length > 0 else { return .blob([]) }
            return .blob([UInt8](UnsafeRawBufferPointer(start: bytes, count: length)))
        default:
            return .null
        }
    }
}
