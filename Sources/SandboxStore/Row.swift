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
    public subscript<Value: DatabaseValueConvertible>(_ column: String) -> Value {
        get throws {
            guard let index = index(of: column) else {
                throw DatabaseError.columnNotFound.with(
                    message: "no column named '\(column)' (columns: \(columns.joined(separator: ", ")))"
                )
            }
            return try convert(values[index], column: column)
        }
    }

    /// The value at a zero-based column position.
    ///
    /// - Throws: ``DatabaseError/columnNotFound`` when the position is out of range,
    ///   ``DatabaseError/typeMismatch`` when the value is not a `Value`.
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        get throws {
            guard values.indices.contains(index) else {
                throw DatabaseError.columnNotFound.with(message: "no column at index \(index) (row has \(values.count))")
            }
            return try convert(values[index], column: columns[index])
        }
    }

    private func index(of column: String) -> Int? {
        columns.firstIndex(of: column)
            ?? columns.firstIndex { $0.lowercased() == column.lowercased() }
    }

    private func convert<Value: DatabaseValueConvertible>(_ value: DatabaseValue, column: String) throws -> Value {
        guard let converted = Value(databaseValue: value) else {
            throw DatabaseError.typeMismatch.with(message: "column '\(column)' holds \(value), not \(Value.self)")
        }
        return converted
    }
}
