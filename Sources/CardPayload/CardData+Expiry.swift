import Foundation

extension CardData {
    /// Whether `expiry` is four digits `YYMM` with a month from 01 to 12.
    ///
    /// ```swift
    /// CardData.isValidExpiry("2812")  // true
    /// CardData.isValidExpiry("2813")  // false
    /// ```
    ///
    /// - Parameter expiry: The text to check.
    /// - Returns: `true` when it is a well-formed `YYMM`.
    public static func isValidExpiry(_ expiry: String) -> Bool {
        guard isDigits(expiry, count: 4...4), let month = Int(expiry.suffix(2)) else { return false }
        return (1...12).contains(month)
    }

    /// The first instant after the card stops being valid: midnight UTC on the first day of
    /// the month after `expiry` (a card is good through the whole of its expiry month).
    ///
    /// `YY` is read as 20YY. `nil` when ``expiry`` is not a valid `YYMM`.
    public var expiresAt: Date? { Self.validityEnd(of: expiry) }

    /// Midnight UTC on the first day of the month after a `YYMM` expiry (20YY), or `nil` when it
    /// is not a valid `YYMM`.
    ///
    /// Plain calendar arithmetic: building a Foundation `Calendar` for every card read cost more
    /// than the rest of the expiry check.
    public static func validityEnd(of expiry: String) -> Date? {
        guard isValidExpiry(expiry), let yy = Int(expiry.prefix(2)), let mm = Int(expiry.suffix(2)) else { return nil }
        let (year, month) = mm == 12 ? (2000 + yy + 1, 1) : (2000 + yy, mm + 1)
        return Date(timeIntervalSince1970: Double(daysSince1970(year: year, month: month, day: 1)) * 86_400)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`: years counted from March, so the leap day ends a year).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Whether the card has expired at `date`.
    ///
    /// ```swift
    /// card.isExpired(at: clock.now())   // host: the kernel declines → TERMINAL_DECLINED
    /// ```
    ///
    /// - Parameter date: The instant to judge at, from the caller's clock.
    /// - Returns: `true` from the first day of the month after the expiry month, and for a
    ///   malformed expiry.
    public func isExpired(at date: Date) -> Bool {
        guard let expiresAt else { return true }
        return date >= expiresAt
    }
}
