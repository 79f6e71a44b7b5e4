/// A record's table: each column's name beside the property it holds, in one list that reading
/// a row, writing one and the column list all come from (GRDB's `encode(to:)` shape, with the
/// way back too).
///
/// ```swift
/// struct Payment {
///     var id = "", amount = 0, note: String?
///     static let table = ColumnTable<Payment>("payments", [
///         Column("id", \.id), Column("amount", \.amount), Column("note", \.note),
///     ])
/// }
/// try db.run(Payment.table.upsert(key: "id"), Payment.table.values(of: payment))
/// var read = Payment()
/// try Payment.table.read(row, into: &read)
/// ```
public struct ColumnTable<Record>: Sendable {
    /// The SQL table.
    public let name: String
    public let columns: [Column<Record>]

    public init(_ name: String, _ columns: [Column<Record>]) {
        self.name = name
        self.columns = columns
    }

    /// The column names, in table order.
    public var names: [String] { columns.map(\.name) }

    /// The column names as a `SELECT` list: `id, amount, note`.
    public var list: String { names.joined(separator: ", ") }

    /// The record's values, in ``names`` order, to bind.
    @inlinable public func values(of record: Record) -> [DatabaseValue] {
        columns.map { $0.write(record) }
    }

    /// Sets every column's property of `record` from `row`.
    ///
    /// - Throws: ``DatabaseError/columnNotFound`` or ``DatabaseError/typeMismatch`` as `Row`'s
    ///   subscript does.
    @inlinable public func read(_ row: Row, into record: inout Record) throws {
        for column in columns { try column.read(&record, row) }
    }

    /// A record read from `row`, starting from `blank` (the values no column sets).
    @inlinable public func record(_ row: Row, from blank: Record) throws -> Record {
        var record = blank
        try read(row, into: &record)
        return record
    }

    /// `INSERT INTO name (every column) VALUES (?, …)`.
    public var insert: String {
        "INSERT INTO \(name) (" + names.joined(separator: ", ") + ") VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
    }

    /// ``insert``, updating every other column of the row whose `key` is already there.
    public func upsert(key: String) -> String {
        insert + " ON CONFLICT(\(key)) DO UPDATE SET "
            + names.filter { $0 != key }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
    }
}

/// One column of a ``ColumnTable``: its name and how its property reads and writes.
public struct Column<Record>: Sendable {
    public let name: String
    @usableFromInline let write: @Sendable (Record) -> DatabaseValue
    @usableFromInline let read: @Sendable (inout Record, Row) throws -> Void

    /// A column that holds `property` as it converts (NULL for a nil optional).
    @inlinable public init<Value: DatabaseValueConvertible & Sendable>(_ name: String, _ property: WritableKeyPath<Record, Value>) {
        self.name = name
        // A key path literal is immutable; it is captured as such (not as an existential, which is slower to apply).
        nonisolated(unsafe) let property = property
        write = { $0[keyPath: property].databaseValue }
        read = { record, row in record[keyPath: property] = try row[name] }
    }

    /// A column that writes and reads its own way (a value spread over several properties, a date).
    public init(
        _ name: String, write: @escaping @Sendable (Record) -> DatabaseValue,
        read: @escaping @Sendable (inout Record, Row) throws -> Void
    ) {
        self.name = name
        self.write = write
        self.read = read
    }

    /// A column that holds an enumeration as its raw text; text no case has reads as `unknown`.
    @inlinable public init<Value: RawRepresentable>(
        _ name: String, _ property: WritableKeyPath<Record, Value>, unknown: Value
    ) where Value.RawValue == String, Value: Sendable {
        self.name = name
        // A key path literal is immutable; it is captured as such (not as an existential, which is slower to apply).
        nonisolated(unsafe) let property = property
        write = { .text($0[keyPath: property].rawValue) }
        read = { record, row in record[keyPath: property] = Value(rawValue: try row[name]) ?? unknown }
    }

    /// A column that holds an optional enumeration as its raw text; NULL, or text no case has, reads as nil.
    @inlinable public init<Value: RawRepresentable>(_ name: String, _ property: WritableKeyPath<Record, Value?>)
    where Value.RawValue == String, Value: Sendable {
        self.name = name
        // A key path literal is immutable; it is captured as such (not as an existential, which is slower to apply).
        nonisolated(unsafe) let property = property
        write = { $0[keyPath: property].map { .text($0.rawValue) } ?? .null }
        read = { record, row in record[keyPath: property] = (try row[name] as String?).flatMap(Value.init(rawValue:)) }
    }
}
