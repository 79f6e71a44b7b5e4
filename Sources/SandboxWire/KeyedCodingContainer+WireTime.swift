import Foundation

// The payment models write and read their dates as ``WireTime`` strings through these helpers
// rather than through the encoder's `dateEncodingStrategy`, so a `JSONEncoder` with default
// settings still produces strings (the default would write seconds since 2001). Reading accepts
// the form with or without fractional seconds, in any offset, on the nearest millisecond.

extension KeyedEncodingContainer {
    /// Writes a date as a ``WireTime`` string, or an explicit `null`.
    mutating func encodeWireDate(_ date: Date?, forKey key: Key) throws {
        try encode(date.map(WireTime.string(from:)), forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// Reads a required ``WireTime`` string.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the text is not an ISO 8601 time.
    func decodeWireDate(forKey key: Key) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let date = WireTime.millisecondDate(from: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\"\(text)\" is not an ISO 8601 time")
        }
        return date
    }

    /// Reads an optional ``WireTime`` string; absent and `null` are nil.
    func decodeWireDateIfPresent(forKey key: Key) throws -> Date? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeWireDate(forKey: key)
    }
}
