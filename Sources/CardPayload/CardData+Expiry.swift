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
    public var expiresAt: Date? {
        guard Self.isValidExpiry(expiry), let yy = Int(expiry.prefix(2)), let mm = Int(expiry.suffix(2)) else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let next = mm == 12 ? DateComponents(year: 2000 + yy + 1, month: 1, day: 1)
                            : DateComponents(year: 2000 + yy, month: mm + 1, day: 1)
        return calendar.date(from: next)
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
