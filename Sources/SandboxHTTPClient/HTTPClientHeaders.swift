/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Field names compare case-insensitively, as HTTP says; repeated fields (`Set-Cookie`,
/// `Link`) stay separate, in the order they arrived.
///
/// ```swift
/// var headers: HTTPClientHeaders = ["Content-Type": "application/json"]
/// headers.add(name: "Webhook-Id", value: "evt_1")
/// response.headers["set-cookie"]          // every value, in order
/// response.headers.first(name: "Content-Type")
/// ```
public struct HTTPClientHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// One header field as it appears on the wire.
    public struct Field: Sendable, Equatable {
        /// The field name, with the case it was written or received with.
        public var name: String
        /// The field value, without surrounding whitespace.
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every field, in order.
    public private(set) var fields: [Field]

    /// Creates headers from fields in the given order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// Every value of the fields named `name`, in order; empty when there is none.
    public subscript(name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// The first value of the field named `name`.
    public func first(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Whether any field is named `name`.
    public func contains(name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// Appends a field, keeping any existing fields of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` with one field.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// The number of fields, counting repeats.
    public var count: Int { fields.count }

    // Header names are ASCII tokens, so an ASCII-only fold is both correct and locale-free.
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8, right = rhs.utf8
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { asciiLowercased($0) == asciiLowercased($1) }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 65 && byte <= 90) ? byte + 32 : byte
    }
}

extension HTTPClientHeaders: Sequence {
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}
