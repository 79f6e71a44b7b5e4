import Foundation

/// Times on the wire: ISO 8601 in UTC, `2026-11-29T12:48:22.555Z` (the seed's
/// `YYYY-MM-DDTHH:mm:ss.sTZD`), or on the whole second, `2026-11-29T12:48:22Z`, where a field
/// has always carried whole seconds (terminal lifecycle, clock, sessions).
///
/// One home for the format, so the hosts and the SDKs write and read the same text. Nothing here
/// makes a formatter per call: writing is arithmetic, reading uses two `ISO8601FormatStyle`
/// values made once (format styles are Sendable values, safe on any thread).
///
/// ```swift
/// WireTime.string(milliseconds: 1_764_413_302_555)                       // "2025-11-29T10:48:22.555Z"
/// WireTime.string(milliseconds: 1_764_413_302_555, precision: .seconds)  // "2025-11-29T10:48:22Z"
/// WireTime.date(from: "2025-11-29T11:48:22.555+01:00")                   // the same instant
/// ```
public enum WireTime {
    /// How much of the second a written time carries.
    public enum Precision: Sendable {
        /// `…:22.555Z`: the payment wire's form.
        case milliseconds
        /// `…:22Z`: the second the time falls in (a time is never written as a later second than it is).
        case seconds
    }

    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let whole = Date.ISO8601FormatStyle()

    /// `date` in UTC on its nearest millisecond, `yyyy-MM-ddTHH:mm:ss.SSSZ`.
    ///
    /// Rounded, not truncated: a date made from a whole millisecond count is a Double a hair
    /// below it about half the time, and a truncating formatter printed the millisecond before
    /// (a transaction stored at …39.650 showed …39.649).
    public static func string(from date: Date) -> String {
        string(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    /// The time `milliseconds` after 1970-01-01T00:00:00Z, in UTC.
    ///
    /// The calendar is the proleptic Gregorian one, as in ISO 8601 (days to a civil date after
    /// Howard Hinnant's `civil_from_days`), for years 0001 to 9999.
    public static func string(milliseconds: Int64, precision: Precision = .milliseconds) -> String {
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
        if precision == .milliseconds {
            text += "."
            append(inDay % 1000, digits: 3)
        }
        text += "Z"
        return text
    }

    /// The instant an ISO 8601 date and time names (`Z` or an offset, with or without
    /// fractional seconds), as parsed, or nil.
    ///
    /// An offset may be anything RFC 3339 (OpenAPI's `date-time`) allows, up to ±23:59: Foundation's
    /// parser reads offsets up to ±18:00 only, so the offset is read here and the rest as UTC.
    public static func date(from text: String) -> Date? {
        let tail = Array(text.utf8.suffix(6))
        guard tail.count == 6, tail[0] == UInt8(ascii: "+") || tail[0] == UInt8(ascii: "-") else { return utc(text) }
        let digits = [tail[1], tail[2], tail[4], tail[5]].map { Int($0) - Int(UInt8(ascii: "0")) }
        guard tail[3] == UInt8(ascii: ":"), digits.allSatisfy((0...9).contains) else { return nil }
        let (hours, minutes) = (digits[0] * 10 + digits[1], digits[2] * 10 + digits[3])
        // The seconds (or their fraction) come right before the offset: `…:22+01:00`, never `…:22Z+01:00`.
        let rest = text.utf8.dropLast(6)
        guard hours < 24, minutes < 60, let last = rest.last, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(last),
            let local = utc(String(decoding: rest, as: UTF8.self) + "Z")
        else { return nil }
        let offset = Double((hours * 60 + minutes) * 60)
        return local.addingTimeInterval(tail[0] == UInt8(ascii: "+") ? -offset : offset)
    }

    private static func utc(_ text: String) -> Date? {
        (try? fractional.parse(text)) ?? (try? whole.parse(text))
    }

    /// ``date(from:)`` on its nearest whole millisecond.
    ///
    /// A date built from a clock's milliseconds (`Date(timeIntervalSince1970: Double(ms) / 1000)`)
    /// then reads back equal to itself.
    public static func millisecondDate(from text: String) -> Date? {
        date(from: text).map { Date(timeIntervalSince1970: ($0.timeIntervalSince1970 * 1000).rounded() / 1000) }
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
}
