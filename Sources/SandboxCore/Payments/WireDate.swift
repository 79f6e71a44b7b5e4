import Foundation

/// Dates on the payment wire: ISO 8601 in UTC with milliseconds, `2026-11-29T12:48:22.555Z`,
/// the seed's `YYYY-MM-DDTHH:mm:ss.sTZD`.
///
/// Models write their dates through these helpers rather than through the encoder's
/// `dateEncodingStrategy`, so a `JSONEncoder` with default settings still produces strings
/// (the default would write seconds since 2001). Reading accepts the same form with or without
/// fractional seconds, in any offset.
enum WireDate {
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let whole = Date.ISO8601FormatStyle()

    /// `date` as `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC.
    static func string(from date: Date) -> String {
        date.formatted(fractional)
    }

    /// The date an ISO 8601 text names, on a whole millisecond, or nil.
    ///
    /// Rounding to the millisecond makes a date built from the host clock's milliseconds
    /// (`Date(timeIntervalSince1970: Double(ms) / 1000)`) read back equal to itself.
    static func date(from text: String) -> Date? {
        guard let parsed = (try? fractional.parse(text)) ?? (try? whole.parse(text)) else { return nil }
        return Date(timeIntervalSince1970: (parsed.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}

extension KeyedEncodingContainer {
    /// Writes a date as a ``WireDate`` string, or an explicit `null`.
    mutating func encodeWireDate(_ date: Date?, forKey key: Key) throws {
        try encode(date.map(WireDate.string(from:)), forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// Reads a required ``WireDate`` string.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the text is not an ISO 8601 time.
    func decodeWireDate(forKey key: Key) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let date = WireDate.date(from: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\"\(text)\" is not an ISO 8601 time")
        }
        return date
    }

    /// Reads an optional ``WireDate`` string; absent and `null` are nil.
    func decodeWireDateIfPresent(forKey key: Key) throws -> Date? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeWireDate(forKey: key)
    }
}
