import Foundation
import SandboxWire

// The SDK's models read and write their dates as ``WireTime`` strings; an absent date is left out.

extension KeyedDecodingContainer {
    func decodeDate(forKey key: Key) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let date = WireTime.date(from: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\"\(text)\" is not an ISO 8601 time")
        }
        return date
    }

    func decodeDateIfPresent(forKey key: Key) throws -> Date? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = WireTime.date(from: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\"\(text)\" is not an ISO 8601 time")
        }
        return date
    }
}

extension KeyedEncodingContainer {
    mutating func encodeDate(_ date: Date?, forKey key: Key) throws {
        try encodeIfPresent(date.map(WireTime.string(from:)), forKey: key)
    }
}
