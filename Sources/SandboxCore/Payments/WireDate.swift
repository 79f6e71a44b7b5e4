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

    /// `date` as `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC, on its nearest millisecond.
    ///
    /// Computed from the millisecond count rather than with `Date.ISO8601FormatStyle`, which
    /// truncates: a date made from a whole millisecond count is a Double a hair below it about
    /// half the time, and the style then printed the millisecond before (a transaction stored at
    /// …39.650 showed …39.649). The calendar is the proleptic Gregorian one, as in ISO 8601
    /// (days to a civil date after Howard Hinnant's `civil_from_days`), for years 0001 to 9999.
    static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, inDay) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        var text = ""
        text.reserveCapacity(24)
        func append(_ value: Int64, digits: Int) {
            let number = String(value)
            text += String(repeating: "0", count: max(0, digits - number.count)) + number
        }
        append(year, digits: 4)
        text += "-"
        append(month, digits: 2)
        text += "-"
        append(day, digits: 2)
        text += "T"
        append(inDay / 3_600_000, digits: 2)
        text += ":"
        append(inDay / 60_000 % 60, digits: 2)
        text += ":"
        append(inDay / 1000 % 60, digits: 2)
        text += "."
        append(inDay % 1000, digits: 3)
        text += "Z"
        return text
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }

    /// Year, month and day of the day `days` after 1970-01-01.
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468  // days since 0000-03-01
        let era = floorDivision(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153  // March = 0
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
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
