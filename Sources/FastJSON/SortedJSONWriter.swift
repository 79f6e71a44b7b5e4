import Foundation

/// A wire type that writes its own JSON: byte for byte what its `Encodable` conformance gives
/// through `JSONEncoder` with sorted keys, slashes left alone and ISO 8601 dates (the services'
/// wire format, ``SortedJSONEncoder``), without the encoder's generic call, boxed
/// value and key entry for every field.
///
/// Only for the hottest answers: a transaction detail has 37 keys, and the encoder spent 11 µs on
/// one, 8 % of a card sale's CPU; written directly it takes about 1 µs. The encoder uses this when
/// the value it is given conforms. Wire objects conform through ``JSONObjectWritable``, which
/// gives both this and `encode(to:)` from one list of members, so the two cannot drift; their
/// tests compare the bytes with `JSONEncoder`'s on values with every field set and with none
/// (`SortedJSONWritableTests`).
///
/// ```swift
/// var writer = SortedJSONWriter()
/// try currency.write(to: &writer)   // {"code":"EUR","exponent":2,...}, keys sorted
/// ```
public protocol SortedJSONWritable: Encodable {
    /// Writes the value as `JSONEncoder` would, keys in byte order.
    func write(to writer: inout SortedJSONWriter) throws
}

/// The bytes a ``SortedJSONWritable`` writes, with the encoder's own forms of strings and numbers.
public struct SortedJSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Members written so far in the innermost open object.
    private var members = 0

    public init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// An object: `body` writes its members, each a ``member(_:)`` then one value, in key order.
    public mutating func object(_ body: (inout SortedJSONWriter) throws -> Void) rethrows {
        let outer = members
        members = 0
        bytes.append(UInt8(ascii: "{"))
        try body(&self)
        bytes.append(UInt8(ascii: "}"))
        members = outer
    }

    /// The next member's name.
    public mutating func member(_ name: String) {
        if members > 0 { bytes.append(UInt8(ascii: ",")) }
        members += 1
        JSONText.appendString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    /// The next member's name, written ahead of time by ``JSONMemberNames``.
    public mutating func member(written name: [UInt8]) {
        if members > 0 { bytes.append(UInt8(ascii: ",")) }
        members += 1
        bytes.append(contentsOf: name)
    }

    public mutating func null() { bytes.append(contentsOf: "null".utf8) }

    public mutating func string(_ value: String?) {
        guard let value else { return null() }
        JSONText.appendString(value, to: &bytes)
    }

    public mutating func integer(_ value: Int?) {
        guard let value else { return null() }
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func bool(_ value: Bool?) {
        guard let value else { return null() }
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A double as `JSONEncoder` writes it (`1.5`, `2`, `1e-07`); infinity and NaN throw its error.
    public mutating func double(_ value: Double?, codingPath: @autoclosure () -> [any CodingKey]) throws {
        guard let value else { return null() }
        guard let text = JSONText.number(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath(), debugDescription: "Unable to encode Double.\(value) directly in JSON."))
        }
        bytes.append(contentsOf: text.utf8)
    }

    /// A nested value that writes itself, or `null`.
    public mutating func value(_ value: (some SortedJSONWritable)?) throws {
        guard let value else { return null() }
        try value.write(to: &self)
    }
}
