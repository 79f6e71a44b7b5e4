import Foundation
import SandboxWire
import Testing

/// The one wire-time format: what the hosts write and what both sides read.
@Suite struct WireTimeTests {
    /// Milliseconds since 1970 across the range the sandbox clock can reach: the epoch, a leap
    /// day, a transaction time, the end of a day, the last second of 9999.
    static let instants: [Int64] = [
        0, 999, 1000, 951_782_400_000, 1_764_413_302_555, 1_796_039_999_999, 1_796_040_000_000,
        1_709_164_800_123, 253_402_300_799_000, 253_402_300_799_999,
    ]

    /// Whole seconds are byte for byte what Foundation's ISO 8601 style writes (the host's
    /// lifecycle, clock and session times were written with it).
    @Test(arguments: instants)
    func secondsAreFoundationsISO8601(_ milliseconds: Int64) {
        let foundation = Date.ISO8601FormatStyle().format(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        #expect(WireTime.string(milliseconds: milliseconds, precision: .seconds) == foundation)
    }

    @Test func millisecondsAreUTCWithThreeDigits() {
        #expect(WireTime.string(milliseconds: 1_764_413_302_555) == "2025-11-29T10:48:22.555Z")
        #expect(WireTime.string(milliseconds: 1_764_413_302_555, precision: .seconds) == "2025-11-29T10:48:22Z")
        #expect(WireTime.string(milliseconds: 951_782_400_007) == "2000-02-29T00:00:00.007Z")
        #expect(WireTime.string(milliseconds: 253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
    }

    /// A date made from a whole millisecond count prints that millisecond, not the one before.
    @Test(arguments: instants + [1_764_413_339_650, 1_764_413_339_649, 1_764_413_339_001])
    func aDateFromMillisecondsPrintsThem(_ milliseconds: Int64) throws {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        let text = WireTime.string(from: date)
        #expect(text == WireTime.string(milliseconds: milliseconds))
        #expect(WireTime.millisecondDate(from: text) == date)
    }

    @Test func readsZuluOffsetsAndFractions() throws {
        let instant = Date(timeIntervalSince1970: 1_764_413_302)
        #expect(WireTime.date(from: "2025-11-29T10:48:22Z") == instant)
        #expect(WireTime.date(from: "2025-11-29T11:48:22+01:00") == instant)
        let fractional = try #require(WireTime.date(from: "2025-11-29T11:48:22.555+01:00"))
        #expect(abs(fractional.timeIntervalSince1970 - 1_764_413_302.555) < 0.000_01)
        #expect(WireTime.millisecondDate(from: "2025-11-29T10:48:22.555Z") == Date(timeIntervalSince1970: 1_764_413_302_555 / 1000))
    }

    /// RFC 3339 (OpenAPI's `date-time`) allows offsets up to ±23:59; Foundation's parser alone stops at ±18:00.
    @Test func readsEveryOffsetRFC3339Allows() {
        let instant = Date(timeIntervalSince1970: 1_764_413_302)
        #expect(WireTime.date(from: "2025-11-30T07:51:22+21:03") == instant)
        #expect(WireTime.date(from: "2025-11-28T10:49:22-23:59") == instant)
        #expect(WireTime.date(from: "2025-11-29T10:48:22-00:00") == instant)
        #expect(WireTime.date(from: "2025-11-30T07:51:22.5+21:03") == instant.addingTimeInterval(0.5))
    }

    @Test(arguments: [
        "", "2025-11-29", "10:48:22Z", "yesterday", "2025-11-29 10:48:22", "2025-11-29T10:48:22+24:00", "2025-11-29T10:48:22+01:60",
        "2025-11-29T10:48:22+1:000", "2025-11-29T10:48:22Z+01:00", "+01:00",
    ])
    func refusesWhatIsNotADateAndTime(_ text: String) {
        #expect(WireTime.date(from: text) == nil)
        #expect(WireTime.millisecondDate(from: text) == nil)
    }
}
