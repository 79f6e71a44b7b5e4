import Foundation

/// Times on the wire: ISO 8601 in UTC, with or without fractional seconds.
enum WireDate {
    static func parse(_ text: String) -> Date? {
        let whole = ISO8601DateFormatter()
        if let date = whole.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

extension KeyedDecodingContainer {
    func decodeDate(forKey key: Key) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let date = WireDate.parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\"\(text)\" is not an ISO 8601 time")
        }
        return date
    }

    func decodeDateIfPresent(forKey key: Key) throws -> Date? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = WireDate.parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\"\(text)\" is not an ISO 8601 time")
        }
        return date
    }
}

extension KeyedEncodingContainer {
    mutating func encodeDate(_ date: Date?, forKey key: Key) throws {
        try encodeIfPresent(date.map(WireDate.string), forKey: key)
    }
}
