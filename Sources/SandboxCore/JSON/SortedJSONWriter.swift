import Foundation

/// A wire type that writes its own JSON: byte for byte what its `Encodable` conformance gives
/// through `JSONEncoder` with sorted keys, slashes left alone and ISO 8601 dates (the services'
/// wire format, `SortedJSONEncoder` in SandboxHTTP), without the encoder's generic call, boxed
/// value and key entry for every field.
///
/// Only for the hottest answers: a transaction detail has 37 keys, and the encoder spent 11 µs on
/// one, 8 % of a card sale's CPU; written directly it takes about 1 µs. The encoder uses this when
/// the value it is given conforms. A conforming type's tests compare the two encodings on values
/// with every field set and with none (`SortedJSONWritableTests`), so a field added to one and not
/// the other fails them.
///
/// ```swift
/// extension TerminalCurrency: SortedJSONWritable {
///     public func write(to writer: inout SortedJSONWriter) throws {
///         writer.object { w in
///             w.member("code"); w.string(code)
///             if let exponent { w.member("exponent"); w.integer(exponent) }
///         }
///     }
/// }
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

/// The members of a coding key type in the order `JSONEncoder` sorts them (byte order of their
/// names), each name written once as JSON with its colon.
public struct JSONMemberNames<Key: CodingKey & CaseIterable>: @unchecked Sendable {
    public let sorted: [(key: Key, name: [UInt8])]

    public init() {
        sorted = Key.allCases
            .map { key -> (key: Key, name: [UInt8]) in
                var name: [UInt8] = []
                JSONText.appendString(key.stringValue, to: &name)
                return (key, name + [UInt8(ascii: ":")])
            }
            .sorted { JSONText.compare($0.key.stringValue, $1.key.stringValue) < 0 }
    }
}

/// JSON text as `JSONEncoder` writes it, shared by `SortedJSONEncoder` and ``SortedJSONWriter``.
public enum JSONText {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `string` as a JSON string: quotes, backslash and control characters escaped the way
    /// JSONEncoder does (`\b \f \n \r \t`, others `\u00xx`), `/` and everything else as is.
    public static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var plainFrom = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainFrom..<index]))
                plainFrom = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22: out.append(UInt8(ascii: "\""))
                case 0x5C: out.append(UInt8(ascii: "\\"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainFrom...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The order JSONEncoder sorts keys in: the byte order of their UTF-8 (memcmp on native
    /// strings, as coding keys are).
    public static func compare(_ a: String, _ b: String) -> Int {
        let fast = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right -> Int in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : Int(memcmp(left.baseAddress!, right.baseAddress!, common))
                return order != 0 ? order : left.count - right.count
            }
        }
        if let fast, let order = fast { return order }
        if a.utf8.elementsEqual(b.utf8) { return 0 }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
    }

    /// A finite number as JSONEncoder writes it (Swift's shortest form, `.0` dropped); nil for
    /// infinity and NaN, which JSON cannot hold.
    public static func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) -> String? {
        guard value.isFinite else { return nil }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
