import Foundation

/// A Swift type that converts to and from a ``DatabaseValue``.
///
/// Row subscripts use it to read typed columns, and `.databaseValue` to bind:
///
/// ```swift
/// let amount: Int64 = try row["amount"]
/// let note: String? = try row["note"]      // NULL becomes nil
/// try db.run("UPDATE t SET note = ?", [note.databaseValue])
/// ```
///
/// Conversions are strict, so a schema mistake shows up as ``DatabaseError/typeMismatch``
/// rather than a silent zero: text never reads as a number, and a number never reads as text.
public protocol DatabaseValueConvertible {
    /// The value, or `nil` when `databaseValue` does not hold this type.
    init?(databaseValue: DatabaseValue)

    /// The value to bind or store.
    var databaseValue: DatabaseValue { get }
}

extension DatabaseValue: DatabaseValueConvertible {
    @inlinable public init?(databaseValue: DatabaseValue) { self = databaseValue }
    @inlinable public var databaseValue: DatabaseValue { self }
}

extension Int64: DatabaseValueConvertible {
    @inlinable public init?(databaseValue: DatabaseValue) {
        guard case .integer(let value) = databaseValue else { return nil }
        self = value
    }
    @inlinable public var databaseValue: DatabaseValue { .integer(self) }
}

extension Int: DatabaseValueConvertible {
    @inlinable public init?(databaseValue: DatabaseValue) {
        guard case .integer(let value) = databaseValue, let exact = Int(exactly: value) else { return nil }
        self = exact
    }
    @inlinable public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Bool: DatabaseValueConvertible {
    /// 0 is false, any other integer is true (SQLite has no boolean storage class).
    @inlinable public init?(databaseValue: DatabaseValue) {
        guard case .integer(let value) = databaseValue else { return nil }
        self = value != 0
    }
    @inlinable public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
}

extension Double: DatabaseValueConvertible {
    /// Reads reals, and integers too: SQLite may store an integral `REAL` value as an integer.
    @inlinable public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
    @inlinable public var databaseValue: DatabaseValue { .real(self) }
}

extension String: DatabaseValueConvertible {
    @inlinable public init?(databaseValue: DatabaseValue) {
        guard case .text(let value) = databaseValue else { return nil }
        self = value
    }
    @inlinable public var databaseValue: DatabaseValue { .text(self) }
}

extension Array: DatabaseValueConvertible where Element == UInt8 {
    @inlinable public init?(databaseValue: DatabaseValue) {
        guard case .blob(let bytes) = databaseValue else { return nil }
        self = bytes
    }
    @inlinable public var databaseValue: DatabaseValue { .blob(self) }
}

extension Data: DatabaseValueConvertible {
    @inlinable public init?(databaseValue: DatabaseValue) {
        guard case .blob(let bytes) = databaseValue else { return nil }
        self = Data(bytes)
    }
    @inlinable public var databaseValue: DatabaseValue { .blob([UInt8](self)) }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// `NULL` reads as `nil`; any other value must convert to `Wrapped`.
    @inlinable public init?(databaseValue: DatabaseValue) {
        if databaseValue.isNull {
            self = .none
        } else if let value = Wrapped(databaseValue: databaseValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
    @inlinable public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
}
