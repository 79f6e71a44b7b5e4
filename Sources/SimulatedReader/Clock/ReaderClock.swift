import SandboxTime
import Foundation

/// The reader's source of time: what "now" is (a `TimeSource`), and how to wait.
///
/// Every timed rule of the reader (40 s card screen, 60 s PIN, 15 s location fix, prepare
/// progress) reads and waits on this clock, so tests give the reader a
/// ``ManualReaderClock`` whose `sleep` moves time forward at once and never really waits.
///
/// ```swift
/// let clock = ManualReaderClock()
/// let reader = Reader(clock: clock)
/// // A 40 s card-screen timeout now takes microseconds, and clock.now() is 40 s later.
/// ```
public protocol ReaderClock: TimeSource {
    /// Waits `seconds` of this clock's time.
    ///
    /// - Parameter seconds: How long; zero or less returns at once.
    func sleep(for seconds: TimeInterval) async
}

/// The device's wall clock; `sleep` really waits (`Task.sleep`).
///
/// This is the one place the reader reads system time.
///
/// ```swift
/// let reader = Reader(clock: LiveReaderClock())
/// ```
public struct LiveReaderClock: ReaderClock {
    /// Creates the live clock; it holds no state.
    public init() {}

    public func now() -> Date {
        Date()
    }

    public func sleep(for seconds: TimeInterval) async {
        guard seconds > 0 else { return }
        // A cancelled task stops waiting early; the reader checks its own state afterwards.
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }
}
