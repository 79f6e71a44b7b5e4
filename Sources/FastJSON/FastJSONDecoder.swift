import Foundation

/// Decodes JSON into a `Decodable` value, giving what Foundation's `JSONDecoder` with its default
/// strategies gives, in about a third of its time on the small objects of request bodies and card
/// payloads.
///
/// `JSONDecoder` turns every object into a dictionary of boxed values and checks every decoded
/// type against its special types with dynamic casts; for a card sale that is a tenth of the
/// host's CPU. This decoder parses into a flat ``Tape`` and reads keys and scalars straight from
/// the bytes. Whatever it does not handle goes to `JSONDecoder` whole: a non-ASCII or escaped
/// key, a repeated key, a number that is not a whole number for an integer type, `Float`,
/// `Date`, `Data`, `URL`, `Decimal`, a super decoder, and every error. So results and errors are
/// always Foundation's; `FastJSONDecoderTests` compares the two on every case that takes either
/// path.
///
/// ```swift
/// let sale = try FastJSONDecoder.decode(SaleRequest.self, from: body)
/// ```
public enum FastJSONDecoder {
    /// Decodes `type` from UTF-8 JSON.
    ///
    /// - Throws: What `JSONDecoder().decode(type, from: Data(bytes))` throws.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        if let value = fastDecode(type, from: bytes) { return value }
        return try JSONDecoder().decode(T.self, from: Data(bytes))
    }

    /// Decodes `type` from a document ``JSONShape`` checked, on the tape that check parsed.
    ///
    /// - Throws: What `JSONDecoder().decode(type, from: Data(bytes))` throws.
    public static func decode<T: Decodable>(_ type: T.Type, from checked: JSONShape.Checked) throws -> T {
        if let tape = checked.tape, tape.plainKeys, let value = fastDecode(type, from: tape) { return value }
        return try JSONDecoder().decode(T.self, from: Data(checked.bytes))
    }

    /// The value, or `nil` when this decoder leaves the document to Foundation.
    static func fastDecode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) -> T? {
        guard let tape = Tape(bytes) else { return nil }
        return fastDecode(type, from: tape)
    }

    private static func fastDecode<T: Decodable>(_ type: T.Type, from tape: Tape) -> T? {
        let document = Document(tape)
        guard let value = try? T(from: TapeDecoder(document: document, node: 0, codingPath: [])), !document.gaveUp else { return nil }
        return value
    }
}

/// Thrown inside the fast path for anything left to Foundation; never seen by callers.
private struct Unhandled: Error {}

/// The tape, shared by every decoder and container of one document.
private final class Document {
    let tape: Tape
    /// Set whenever something is left to Foundation, so the fast path answers nothing even where
    /// a decoder's own code caught the error (`try?`) or could not throw it (`contains`).
    private(set) var gaveUp = false

    init(_ tape: Tape) {
        self.tape = tape
    }

    func node(_ index: Int) -> Tape.Node { tape.nodes[index] }

    /// The error that leaves the document to Foundation.
    func unhandled() -> any Error {
        gaveUp = true
        return Unhandled()
    }

    func isNull(_ index: Int) -> Bool { node(index).kind == .null }

    func bool(_ index: Int) throws -> Bool {
        switch node(index).kind {
        case .true: return true
        case .false: return false
        default: throw unhandled()
        }
    }

    func string(_ index: Int) throws -> String {
        let node = node(index)
        guard node.kind == .string else { throw unhandled() }
        let bytes = tape.slice(node)
        guard node.flag else { return String(decoding: bytes, as: UTF8.self) }
        guard let unescaped = Tape.unescape(bytes) else { throw unhandled() }
        return String(decoding: unescaped, as: UTF8.self)
    }

    /// A whole number without fraction or exponent that `T` holds exactly; "-0" only for signed types.
    func integer<T: FixedWidthInteger>(_ index: Int, as type: T.Type) throws -> T {
        let node = node(index)
        guard node.kind == .number, !node.flag else { throw unhandled() }
        var digits = tape.slice(node)
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        var magnitude: UInt64 = 0
        for byte in digits {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
            guard !overflow, !carry else { throw unhandled() }
            magnitude = sum
        }
        if negative {
            guard T.isSigned, magnitude <= UInt64(1) << 63 else { throw unhandled() }
            let value = magnitude == UInt64(1) << 63 ? Int64.min : -Int64(magnitude)
            guard let exact = T(exactly: value) else { throw unhandled() }
            return exact
        }
        guard let exact = T(exactly: magnitude) else { throw unhandled() }
        return exact
    }

    /// A double, correctly rounded by `strtod` as Foundation's is.
    func double(_ index: Int) throws -> Double {
        let node = node(index)
        guard node.kind == .number else { throw unhandled() }
        var text = Array(tape.slice(node))
        text.append(0)
        let value = text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { strtod($0.baseAddress!, nil) }
        }
        // Foundation refuses what overflows to infinity or underflows to zero.
        guard value.isFinite else { throw unhandled() }
        if value == 0, text.prefix(while: { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }).contains(where: { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }) {
            throw unhandled()
        }
        return value
    }

    /// The value nodes of an object's keys, in document order; a repeated key is left to Foundation.
    func members(of index: Int) throws -> [(key: ArraySlice<UInt8>, value: Int)] {
        let object = node(index)
        guard object.kind == .object else { throw unhandled() }
        var members: [(key: ArraySlice<UInt8>, value: Int)] = []
        // Repeated keys are found in one pass: a scan of the few keys of a small object, a set beyond.
        var seen: Set<ArraySlice<UInt8>> = []
        var position = index + 1
        while position < Int(object.next) {
            let key = tape.slice(node(position))
            if members.count < 16 {
                for member in members where member.key == key { throw unhandled() }
            } else {
                if seen.isEmpty { seen = Set(members.map(\.key)) }
                guard seen.insert(key).inserted else { throw unhandled() }
            }
            members.append((key, position + 1))
            position = Int(node(position + 1).next)
        }
        return members
    }

    /// The item nodes of an array.
    func items(of index: Int) throws -> [Int] {
        let array = node(index)
        guard array.kind == .array else { throw unhandled() }
        var items: [Int] = []
        var position = index + 1
        while position < Int(array.next) {
            items.append(position)
            position = Int(node(position).next)
        }
        return items
    }

    /// Decodes a nested value; the types `JSONDecoder` decodes its own way are left to it.
    func decode<T: Decodable>(_ type: T.Type, at index: Int, codingPath: [any CodingKey]) throws -> T {
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self || T.self == Float.self {
            throw unhandled()
        }
        return try T(from: TapeDecoder(document: self, node: index, codingPath: codingPath))
    }
}

private struct TapeDecoder: Decoder {
    let document: Document
    let node: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(
            KeyedContainer<Key>(document: document, members: try document.members(of: node), codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        UnkeyedContainer(document: document, items: try document.items(of: node), codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(document: document, node: node, codingPath: codingPath)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let document: Document
    let members: [(key: ArraySlice<UInt8>, value: Int)]
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        members.compactMap { Key(stringValue: String(decoding: $0.key, as: UTF8.self)) }
    }

    /// The value node of `key`; a non-ASCII key name is left to Foundation (Swift compares
    /// strings by canonical equivalence, not by bytes).
    private func value(_ key: Key) throws -> Int? {
        var name = key.stringValue
        return try name.withUTF8 { wanted in
            guard wanted.allSatisfy({ $0 < 0x80 }) else { throw document.unhandled() }
            return members.first { member in
                member.key.count == wanted.count
                    && (wanted.isEmpty || member.key.withUnsafeBufferPointer { memcmp($0.baseAddress!, wanted.baseAddress!, wanted.count) == 0 })
            }?.value
        }
    }

    private func required(_ key: Key) throws -> Int {
        guard let index = try value(key) else { throw document.unhandled() }
        return index
    }

    /// A key name left to Foundation marks the document (`unhandled()`), so `false` here is never
    /// the answer the caller gets.
    func contains(_ key: Key) -> Bool { (try? value(key)) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { document.isNull(try required(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try document.bool(required(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try document.string(required(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try document.double(required(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw document.unhandled() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try document.integer(required(key), as: type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try document.integer(required(key), as: type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try document.integer(required(key), as: type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try document.integer(required(key), as: type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try document.integer(required(key), as: type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try document.integer(required(key), as: type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try document.integer(required(key), as: type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try document.integer(required(key), as: type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try document.integer(required(key), as: type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try document.integer(required(key), as: type) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try document.decode(type, at: required(key), codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        KeyedDecodingContainer(
            KeyedContainer<NestedKey>(document: document, members: try document.members(of: required(key)), codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        UnkeyedContainer(document: document, items: try document.items(of: required(key)), codingPath: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder { throw document.unhandled() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw document.unhandled() }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let document: Document
    let items: [Int]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(document: Document, items: [Int], codingPath: [any CodingKey]) {
        self.document = document
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The next item, consumed only when `read` succeeds (as the protocol asks).
    private mutating func next<T>(_ read: (Document, Int) throws -> T) throws -> T {
        guard !isAtEnd else { throw document.unhandled() }
        let value = try read(document, items[currentIndex])
        currentIndex += 1
        return value
    }

    private var path: [any CodingKey] { codingPath + [IndexKey(intValue: currentIndex)] }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw document.unhandled() }
        guard document.isNull(items[currentIndex]) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next { try $0.bool($1) } }
    mutating func decode(_ type: String.Type) throws -> String { try next { try $0.string($1) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next { try $0.double($1) } }
    mutating func decode(_ type: Float.Type) throws -> Float { throw document.unhandled() }
    mutating func decode(_ type: Int.Type) throws -> Int { try next { try $0.integer($1, as: type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next { try $0.integer($1, as: type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next { try $0.integer($1, as: type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next { try $0.integer($1, as: type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next { try $0.integer($1, as: type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next { try $0.integer($1, as: type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next { try $0.integer($1, as: type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next { try $0.integer($1, as: type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next { try $0.integer($1, as: type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next { try $0.integer($1, as: type) } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let path = path
        return try next { try $0.decode(type, at: $1, codingPath: path) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let path = path
        return try next { KeyedDecodingContainer(KeyedContainer<NestedKey>(document: $0, members: try $0.members(of: $1), codingPath: path)) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let path = path
        return try next { UnkeyedContainer(document: $0, items: try $0.items(of: $1), codingPath: path) }
    }

    mutating func superDecoder() throws -> any Decoder { throw document.unhandled() }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let document: Document
    let node: Int
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { document.isNull(node) }
    func decode(_ type: Bool.Type) throws -> Bool { try document.bool(node) }
    func decode(_ type: String.Type) throws -> String { try document.string(node) }
    func decode(_ type: Double.Type) throws -> Double { try document.double(node) }
    func decode(_ type: Float.Type) throws -> Float { throw document.unhandled() }
    func decode(_ type: Int.Type) throws -> Int { try document.integer(node, as: type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try document.integer(node, as: type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try document.integer(node, as: type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try document.integer(node, as: type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try document.integer(node, as: type) }
    func decode(_ type: UInt.Type) throws -> UInt { try document.integer(node, as: type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try document.integer(node, as: type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try document.integer(node, as: type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try document.integer(node, as: type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try document.integer(node, as: type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try document.decode(type, at: node, codingPath: codingPath)
    }
}

/// An array position in a coding path.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
