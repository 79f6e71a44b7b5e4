import Foundation

/// Encodes an `Encodable` value to the very bytes of Foundation's `JSONEncoder` with
/// `outputFormatting = [.sortedKeys, .withoutEscapingSlashes]` and `dateEncodingStrategy =
/// .iso8601` (the wire format of every service, `JSON` in SandboxHTTP), in about a third of its time.
///
/// `JSONEncoder` builds a tree of boxed values, checks every value for the special types with a
/// dynamic cast and sorts keys through a generic comparison; for a transaction detail that is
/// an eighth of a sale's CPU. This encoder keeps every scalar as bytes in one buffer, checks the
/// special types by comparing metatypes, and builds objects only to sort their keys when written.
/// `SortedJSONEncoderTests` compares its output with `JSONEncoder`'s for every wire type and for
/// the hard cases (escapes, floating point, nesting, repeated keys, errors).
///
/// ```swift
/// let bytes: [UInt8] = try SortedJSONEncoder.encode(detail)
/// ```
public enum SortedJSONEncoder {
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        if let writable = value as? any SortedJSONWritable {
            var writer = SortedJSONWriter()
            try writable.write(to: &writer)
            return writer.bytes
        }
        let encoder = NodeEncoder(scalars: Scalars(), path: nil)
        guard let node = try encoder.box(value, under: nil, key: nil) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Top-level \(type(of: value)) did not encode any values."))
        }
        var out: [UInt8] = []
        out.reserveCapacity(encoder.scalars.bytes.count + 256)
        write(node, scalars: encoder.scalars.bytes, into: &out)
        return out
    }

    private static func write(_ node: Node, scalars: [UInt8], into out: inout [UInt8]) {
        switch node {
        case .scalar(let start, let end):
            out.append(contentsOf: scalars[start..<end])
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, item) in array.items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(item, scalars: scalars, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            let entries = object.entries
            out.append(UInt8(ascii: "{"))
            for (position, index) in KeyOrders.order(of: entries, keyType: object.keyType).enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendString(entries[index].key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(entries[index].node, scalars: scalars, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .deferred(let encoder):
            // A super encoder: what was encoded into it, or an empty object.
            write(encoder.node ?? .object(ObjectNode()), scalars: scalars, into: &out)
        }
    }
}

/// The order in which an object's entries are written: by the byte order of their UTF-8 keys, as
/// JSONEncoder sorts them, and of equal keys only the last one encoded (JSONEncoder's dictionary
/// keeps the last). A type's coding keys come in the same sequence for every value of it, so the
/// order found for a sequence is kept per key type (a few sequences each, for optional keys left
/// out) and reused when the same keys come again: checking them costs one comparison per key,
/// sorting them dozens.
private enum KeyOrders {
    struct Known {
        let keys: [String]
        let order: [Int]
    }

    /// Read by every encoding on every thread, written a few times per type: a reader-writer lock,
    /// so readers never wait for each other (a mutex here made threads queue and sleep).
    static let cache = ReadMostly<[ObjectIdentifier: [Known]]>([:])
    static let sequencesPerType = 4

    static func order(of entries: [(key: String, node: Node)], keyType: ObjectIdentifier?) -> [Int] {
        if let keyType, let known = cache.read({ $0[keyType] }) {
            for candidate in known where candidate.keys.count == entries.count
                && zip(candidate.keys, entries).allSatisfy({ $0 == $1.key })
            {
                return candidate.order
            }
        }
        let sorted = entries.indices.sorted { left, right in
            switch JSONText.compare(entries[left].key, entries[right].key) {
            case 0: left < right
            case let order: order < 0
            }
        }
        var order: [Int] = []
        order.reserveCapacity(sorted.count)
        for (position, index) in sorted.enumerated()
        where position + 1 == sorted.count || entries[sorted[position + 1]].key != entries[index].key {
            order.append(index)
        }
        if let keyType {
            let found = Known(keys: entries.map(\.key), order: order)
            cache.write { cache in
                var known = cache[keyType] ?? []
                if known.count == sequencesPerType { known.removeFirst() }
                known.append(found)
                cache[keyType] = known
            }
        }
        return order
    }
}

/// The bytes of every scalar encoded so far, one after another; nodes point into them.
private final class Scalars {
    // Only ever touched by the one encoding that owns it: no dynamic exclusivity check needed.
    @exclusivity(unchecked) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1024) }

    func append(_ text: String) -> Node {
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        return .scalar(start, bytes.count)
    }

    func appendString(_ string: String) -> Node {
        let start = bytes.count
        JSONText.appendString(string, to: &bytes)
        return .scalar(start, bytes.count)
    }

    func append(_ value: Bool) -> Node { append(value ? "true" : "false") }

    func append<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F, path: () -> [any CodingKey]) throws -> Node {
        guard let text = JSONText.number(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: path(), debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
        }
        return append(text)
    }
}

/// What one value encoded to.
private enum Node {
    /// A scalar: its bytes in ``Scalars``.
    case scalar(Int, Int)
    case object(ObjectNode)
    case array(ArrayNode)
    /// A super encoder's value, known only once its caller has encoded into it.
    case deferred(NodeEncoder)
}

private final class ObjectNode {
    /// The coding key type the entries came with (nil for a super encoder's empty object).
    let keyType: ObjectIdentifier?
    @exclusivity(unchecked) var entries: [(key: String, node: Node)] = []

    init(keyType: ObjectIdentifier? = nil) { self.keyType = keyType }
}

private final class ArrayNode {
    @exclusivity(unchecked) var items: [Node] = []
}

/// The coding path, as a linked list built only when a path is asked for (errors, custom code).
private final class PathLink {
    let parent: PathLink?
    let key: any CodingKey
    init(parent: PathLink?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    static func keys(_ link: PathLink?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var link = link
        while let current = link {
            keys.append(current.key)
            link = current.parent
        }
        return keys.reversed()
    }
}

/// An index in an unkeyed container, as a coding key of the path.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private final class NodeEncoder: Encoder {
    let scalars: Scalars
    let path: PathLink?
    var node: Node?

    init(scalars: Scalars, path: PathLink?) {
        self.scalars = scalars
        self.path = path
    }

    var codingPath: [any CodingKey] { PathLink.keys(path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: ObjectNode
        if case .object(let existing) = node {
            object = existing
        } else {
            object = ObjectNode(keyType: ObjectIdentifier(Key.self))
            node = .object(object)
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, object: object, path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: ArrayNode
        if case .array(let existing) = node {
            array = existing
        } else {
            array = ArrayNode()
            node = .array(array)
        }
        return UnkeyedContainer(encoder: self, array: array, path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }

    /// Encodes `value` to its node; nil when it encoded nothing at all. Its coding path is
    /// `parent` and then `key` (none: the value of this encoder itself), built only when needed.
    func box<T: Encodable>(_ value: T, under parent: PathLink?, key: (any CodingKey)?) throws -> Node? {
        func path() -> PathLink? { key.map { PathLink(parent: parent, key: $0) } ?? parent }
        // The types JSONEncoder treats specially, and the common scalars, by metatype: cheaper than a cast.
        if T.self == String.self { return scalars.appendString(value as! String) }
        if T.self == Int.self { return scalars.append(String(value as! Int)) }
        if T.self == Int64.self { return scalars.append(String(value as! Int64)) }
        if T.self == Bool.self { return scalars.append(value as! Bool) }
        if T.self == Double.self { return try scalars.append(value as! Double) { PathLink.keys(path()) } }
        if T.self == Date.self { return scalars.appendString((value as! Date).formatted(.iso8601)) }
        if T.self == Data.self { return scalars.appendString((value as! Data).base64EncodedString()) }
        if T.self == URL.self { return scalars.appendString((value as! URL).absoluteString) }
        if T.self == Decimal.self { return scalars.append((value as! Decimal).description) }
        // Optional scalars (explicit nulls in wire types) without an encoder of their own.
        if T.self == String?.self { return (value as! String?).map(scalars.appendString) ?? scalars.append("null") }
        if T.self == Int?.self { return (value as! Int?).map { scalars.append(String($0)) } ?? scalars.append("null") }
        if T.self == Bool?.self { return (value as! Bool?).map(scalars.append) ?? scalars.append("null") }
        if T.self == Double?.self {
            guard let double = value as! Double? else { return scalars.append("null") }
            return try scalars.append(double) { PathLink.keys(path()) }
        }
        let encoder = NodeEncoder(scalars: scalars, path: path())
        try value.encode(to: encoder)
        return encoder.node
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: NodeEncoder
    let object: ObjectNode
    let path: PathLink?

    var codingPath: [any CodingKey] { PathLink.keys(path) }

    private func add(_ node: Node, _ key: Key) { object.entries.append((key.stringValue, node)) }
    private func link(_ key: Key) -> PathLink { PathLink(parent: path, key: key) }

    mutating func encodeNil(forKey key: Key) throws { add(encoder.scalars.append("null"), key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { add(encoder.scalars.append(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { add(encoder.scalars.appendString(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { add(try encoder.scalars.append(value) { PathLink.keys(link(key)) }, key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { add(try encoder.scalars.append(value) { PathLink.keys(link(key)) }, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { add(encoder.scalars.append(String(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { add(encoder.scalars.append(String(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { add(encoder.scalars.append(String(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { add(encoder.scalars.append(String(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { add(encoder.scalars.append(String(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { add(encoder.scalars.append(String(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { add(encoder.scalars.append(String(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { add(encoder.scalars.append(String(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { add(encoder.scalars.append(String(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { add(encoder.scalars.append(String(value)), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        add(try encoder.box(value, under: path, key: key) ?? .object(ObjectNode()), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectNode(keyType: ObjectIdentifier(NestedKey.self))
        add(.object(nested), key)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, object: nested, path: link(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArrayNode()
        add(.array(nested), key)
        return UnkeyedContainer(encoder: encoder, array: nested, path: link(key))
    }

    mutating func superEncoder() -> any Encoder {
        let key = AnyKey("super")
        let sub = NodeEncoder(scalars: encoder.scalars, path: PathLink(parent: path, key: key))
        object.entries.append((key.stringValue, .deferred(sub)))
        return sub
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let sub = NodeEncoder(scalars: encoder.scalars, path: link(key))
        add(.deferred(sub), key)
        return sub
    }
}

private struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: NodeEncoder
    let array: ArrayNode
    let path: PathLink?

    var codingPath: [any CodingKey] { PathLink.keys(path) }
    var count: Int { array.items.count }

    private func link() -> PathLink { PathLink(parent: path, key: IndexKey(array.items.count)) }

    mutating func encodeNil() throws { array.items.append(encoder.scalars.append("null")) }
    mutating func encode(_ value: Bool) throws { array.items.append(encoder.scalars.append(value)) }
    mutating func encode(_ value: String) throws { array.items.append(encoder.scalars.appendString(value)) }
    mutating func encode(_ value: Double) throws { array.items.append(try encoder.scalars.append(value) { PathLink.keys(link()) }) }
    mutating func encode(_ value: Float) throws { array.items.append(try encoder.scalars.append(value) { PathLink.keys(link()) }) }
    mutating func encode(_ value: Int) throws { array.items.append(encoder.scalars.append(String(value))) }
    mutating func encode(_ value: Int64) throws { array.items.append(encoder.scalars.append(String(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.items.append(try encoder.box(value, under: path, key: IndexKey(array.items.count)) ?? .object(ObjectNode()))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectNode(keyType: ObjectIdentifier(NestedKey.self))
        let path = link()
        array.items.append(.object(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, object: nested, path: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ArrayNode()
        let path = link()
        array.items.append(.array(nested))
        return UnkeyedContainer(encoder: encoder, array: nested, path: path)
    }

    mutating func superEncoder() -> any Encoder {
        let sub = NodeEncoder(scalars: encoder.scalars, path: link())
        array.items.append(.deferred(sub))
        return sub
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: NodeEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ node: Node) { encoder.node = node }

    mutating func encodeNil() throws { set(encoder.scalars.append("null")) }
    mutating func encode(_ value: Bool) throws { set(encoder.scalars.append(value)) }
    mutating func encode(_ value: String) throws { set(encoder.scalars.appendString(value)) }
    mutating func encode(_ value: Double) throws { set(try encoder.scalars.append(value) { encoder.codingPath }) }
    mutating func encode(_ value: Float) throws { set(try encoder.scalars.append(value) { encoder.codingPath }) }
    mutating func encode(_ value: Int) throws { set(encoder.scalars.append(String(value))) }
    mutating func encode(_ value: Int8) throws { set(encoder.scalars.append(String(value))) }
    mutating func encode(_ value: Int16) throws { set(encoder.scalars.append(String(value))) }
    mutating func encode(_ value: Int32) throws { set(encoder.scalars.append(String(value))) }
    mutating func encode(_ value: Int64) throws { set(encoder.scalars.append(String(value))) }
    mutating func encode(_ value: UInt) throws { set(encoder.scalars.append(String(value))) }
    mutating func encode(_ value: UInt8) throws { set(encoder.scalars.append(String(value))) }
    mutating func encode(_ value: UInt16) throws { set(encoder.scalars.append(String(value))) }
    mutating func encode(_ value: UInt32) throws { set(encoder.scalars.append(String(value))) }
    mutating func encode(_ value: UInt64) throws { set(encoder.scalars.append(String(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        set(try encoder.box(value, under: encoder.path, key: nil) ?? .object(ObjectNode()))
    }
}
