/// Where an ``JSONObjectWritable`` value's members go, one call per member: the sorted writer on
/// the hot path, a keyed `Encodable` container everywhere else.
///
/// Both sinks give the same JSON for the same calls (an absent optional is an explicit `null`),
/// so a wire type that lists its members once through a sink has one encoding, written two ways.
///
/// ```swift
/// case .exponent: try sink.integer(exponent, for: key)   // `"exponent":2` or `"exponent":null`
/// ```
public protocol JSONMemberSink {
    mutating func string(_ value: String?, for key: some CodingKey) throws
    mutating func integer(_ value: Int?, for key: some CodingKey) throws
    mutating func bool(_ value: Bool?, for key: some CodingKey) throws
    /// Infinity and NaN throw `JSONEncoder`'s `EncodingError`, whose coding path ends in `key`.
    mutating func double(_ value: Double?, for key: some CodingKey) throws
    /// A nested object, or `null`.
    mutating func value(_ value: (some JSONObjectWritable)?, for key: some CodingKey) throws
}

extension SortedJSONWriter: JSONMemberSink {
    public mutating func string(_ value: String?, for key: some CodingKey) { string(value) }
    public mutating func integer(_ value: Int?, for key: some CodingKey) { integer(value) }
    public mutating func bool(_ value: Bool?, for key: some CodingKey) { bool(value) }

    public mutating func double(_ value: Double?, for key: some CodingKey) throws {
        try double(value, codingPath: [key])
    }

    public mutating func value(_ value: (some JSONObjectWritable)?, for key: some CodingKey) throws {
        try self.value(value)
    }
}

/// One member of a keyed `Encodable` container: ``JSONObjectWritable/encode(to:)`` makes one for
/// every key, in the order the keys are declared.
@usableFromInline
struct KeyedMemberSink<Key: CodingKey>: JSONMemberSink {
    /// A view of the encoder's storage: members encoded through a copy land in the same object.
    @usableFromInline var container: KeyedEncodingContainer<Key>
    @usableFromInline let key: Key

    @usableFromInline
    init(_ container: KeyedEncodingContainer<Key>, key: Key) {
        self.container = container
        self.key = key
    }

    @usableFromInline
    mutating func string(_ value: String?, for _: some CodingKey) throws { try encode(value) }

    @usableFromInline
    mutating func integer(_ value: Int?, for _: some CodingKey) throws { try encode(value) }

    @usableFromInline
    mutating func bool(_ value: Bool?, for _: some CodingKey) throws { try encode(value) }

    @usableFromInline
    mutating func double(_ value: Double?, for _: some CodingKey) throws { try encode(value) }

    @usableFromInline
    mutating func value(_ value: (some JSONObjectWritable)?, for _: some CodingKey) throws { try encode(value) }

    /// The value under this sink's key, or an explicit `null` (never left out).
    @usableFromInline
    mutating func encode(_ value: (some Encodable)?) throws {
        if let value { try container.encode(value, forKey: key) } else { try container.encodeNil(forKey: key) }
    }
}
