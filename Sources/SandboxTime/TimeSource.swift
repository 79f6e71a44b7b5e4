import Foundation

/// The one notion of "now" that every part of the sandbox reads: hosts, the webhook inbox, the
/// access log and the simulated reader.
///
/// Time is injected, never read from the system where a rule depends on it, so tests and testers
/// move it instead of waiting: a host runs on a `SandboxClock` that `POST /_sandbox/clock` moves,
/// a reader on a clock whose waits move time at once. Named for what it is, a source of time, so
/// it does not shadow the standard library's `Clock` (which measures durations between instants).
///
/// ```swift
/// struct Fixed: TimeSource {
///     func now() -> Date { Date(timeIntervalSince1970: 1_790_000_000) }
/// }
/// Fixed().nowMilliseconds()   // 1_790_000_000_000
/// ```
public protocol TimeSource: Sendable {
    /// The current instant as this source sees it.
    func now() -> Date
}

extension TimeSource {
    /// Now in whole milliseconds since 1970, the unit the hosts store and compare times in.
    ///
    /// - Returns: ``now()`` as ``Foundation/Date/millisecondsSince1970``.
    public func nowMilliseconds() -> Int64 { now().millisecondsSince1970 }
}

extension Date {
    /// Whole milliseconds since 1970, rounded down: an instant as the hosts store it.
    ///
    /// ```swift
    /// Date(timeIntervalSince1970: 1.9999).millisecondsSince1970   // 1999
    /// ```
    public var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
}
