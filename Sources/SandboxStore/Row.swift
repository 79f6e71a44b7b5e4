/// One result row: column names and values, read by name or by position.
///
/// Rows are plain values, copied out of SQLite when the query runs, so they outlive the
/// statement and the transaction and can cross threads.
///
/// ```swift
/// for row in try db.query("SELECT id, amount, note FROM payments WHERE merchant = ?", [merchant]) {
///     let id: String = try row["id"]
///     let amount: Int64 = try row["amount"]
///     let note: String? = try row["note"]
/// }
/// let count: Int = try db.query("SELECT count(*) FROM payments")[0][0]
/// ```
public struct Row: Sendable, Hashable {
    /// The column names, in `SELECT` order.
    public let columns: [String]

    /// The values, in the same order as ``columns``.
    public let values: [DatabaseValue]

    init(columns: [String], values: [DatabaseValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value of the first column with this name; SQLite names match case-insensitively.
    ///
    /// - Throws: ``DatabaseError/columnNotFound`` when no column has this name,
    ///   ``DatabaseError/typeMismatch`` when the value is not a `Value` (read `Value?` to accept `NULL`).
    @inlinable public subscript<Value: DatabaseValueConvertible>(_ column: String) -> Value {
        get throws {
            guard let index = index(of: column) else { throw missingColumn(column) }
            return try convert(values[index], column: column)
        }
    }

    /// The value at a zero-based column position.
    ///
    /// - Throws: ``DatabaseError/columnNotFound`` when the position is out of range,
    ///   ``DatabaseError/typeMismatch`` when the value is not a `Value`.
    @inlinable public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        get throws {
            guard values.indices.contains(index) else { throw missingColumn(at: index) }
            return try convert(values[index], column: columns[index])
        }
    }

    // Inlinable, so that each read is specialized for its type where it is written (a generic
    // call looks up the type's metadata at run time, on every column of every row); the errors
    // are built out of line.

    @usableFromInline func index(of column: String) -> Int? {
        columns.firstIndex(of: column)
            ?? columns.firstIndex { $0.lowercased() == column.lowercased() }
    }

    @inlinable func convert<Value: DatabaseValueConvertible>(_ value: DatabaseValue, column: String) throws -> Value {
        guard let converted = Value(databaseValue: value) else { throw mismatch(value, column: column, expected: Value.self) }
        return converted
    }

    @usableFromInline func missingColumn(_ column: String) -> DatabaseError {
        DatabaseError.columnNotFound.with(message: "no column named '\(column)' (columns: \(columns.joined(separator: ", ")))")
    }

    @usableFromInline func missingColumn(at index: Int) -> DatabaseError {
        DatabaseError.columnNotFound.with(message: "no column at index \(index) (row has \(values.count))")
    }

    @usableFromInline func mismatch(_ value: DatabaseValue, column: String, expected: Any.Type) -> DatabaseError {
        DatabaseError.typeMismatch.with(message: "column '\(column)' holds \(value), not \(expected)")
    }
}
