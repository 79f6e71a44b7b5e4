/// One SQLite value: the five storage classes, as Swift values.
///
/// Bound parameters and row values are `DatabaseValue`s. Literals make argument lists short:
///
/// ```swift
/// try db.run("INSERT INTO refunds(id, amount, note) VALUES (?, ?, ?)", ["r_1", 1250, nil])
/// ```
///
/// Any ``DatabaseValueConvertible`` value turns into one with `.databaseValue`, which is how
/// optionals become `.null`: `try db.run(sql, [note.databaseValue])`.
public enum DatabaseValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double. SQLite stores NaN as `NULL`.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes. An empty blob stays an empty blob, not `NULL`.
    case blob([UInt8])

    /// True for ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension DatabaseValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension DatabaseValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension DatabaseValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension DatabaseValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
}

extension DatabaseValue: ExpressibleByBooleanLiteral {
    /// SQLite has no boolean type: `true` is stored as 1 and `false` as 0.
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension DatabaseValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'\(value)'"
        case .blob(let bytes): "blob(\(bytes.count) bytes)"
        }
    }
}
