// Small decoding helpers that keep the catalogue's error paths exact.

/// A coding key built at run time: an unknown field's name, or an array index.
struct FieldKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}

extension Decoder {
    /// Refuses any key of the current object that `Keys` does not name.
    ///
    /// Hand-edited files mistype keys (`"tip": true`); ignoring them would silently keep a
    /// default, so the first unknown key, in name order, is reported.
    ///
    /// - Parameters:
    ///   - keys: the keys this object may hold.
    ///   - alsoAllowed: further keys, for objects that flatten another type's fields in.
    /// - Throws: `DecodingError.dataCorrupted` at the unknown key's path; a type mismatch when
    ///   the value is not an object.
    func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type, alsoAllowed: [String] = []) throws {
        let known = Keys.allCases.map(\.stringValue) + alsoAllowed
        let container = try container(keyedBy: FieldKey.self)
        let unknown = container.allKeys.filter { !known.contains($0.stringValue) }
        guard let first = unknown.min(by: { $0.stringValue < $1.stringValue }) else { return }
        throw DecodingError.dataCorrupted(.init(
            codingPath: codingPath + [first],
            debugDescription: "unknown field (expected one of \(known.joined(separator: ", ")))"))
    }
}

extension KeyedDecodingContainer {
    /// Decodes a JSON number that must be whole, such as seconds or an amount in minor units.
    ///
    /// `JSONDecoder` reports `1.5` for an `Int` as invalid JSON at the root, which loses the
    /// field; decoding a `Double` first keeps the path and gives a clear reason.
    ///
    /// - Throws: `DecodingError.dataCorrupted` "expected a whole number" for fractions or
    ///   values beyond ±2^53, where a `Double` stops being exact.
    func decodeWholeNumber(forKey key: Key) throws -> Int {
        let number = try decode(Double.self, forKey: key)
        guard number.rounded() == number, abs(number) <= 9_007_199_254_740_992 else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "expected a whole number")
        }
        return Int(number)
    }

    /// ``decodeWholeNumber(forKey:)`` for a field that may be absent or null.
    func decodeWholeNumberIfPresent(forKey key: Key) throws -> Int? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeWholeNumber(forKey: key)
    }
}

extension DecodingError {
    /// The error a field check raises: the reason, at `path`.
    static func invalid(_ reason: String, at path: [any CodingKey]) -> DecodingError {
        .dataCorrupted(.init(codingPath: path, debugDescription: reason))
    }
}
