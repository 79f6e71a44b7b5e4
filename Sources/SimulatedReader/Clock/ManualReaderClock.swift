import Foundation
import Synchronization

/// A clock for tests and scripted runs: time stands still until someone moves it, and
/// `sleep(for:)` moves it forward by the requested amount at once.
///
/// A reader driven by this clock runs a 40 s card-screen timeout or a 15 s location timeout
/// in microseconds, and the test reads the time the reader saw from ``now()``.
///
/// ```swift
/// let clock = ManualReaderClock(Date(timeIntervalSince1970: 1_790_000_000))
/// await clock.sleep(for: 40)
/// clock.now()   // 1_790_000_040, and no real time passed
/// ```
public final class ManualReaderClock: ReaderClock {
    private let instant: Mutex<Date>

    /// A clock standing at `start`.
    ///
    /// - Parameter start: The first instant; a fixed date so tests are reproducible.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        instant = Mutex(start)
    }

    public func now() -> Date {
        instant.withLock { $0 }
    }

    /// Moves the clock forward.
    ///
    /// - Parameter seconds: How far; negative values are ignored (time never runs back).
    public func advance(by seconds: TimeInterval) {
        guard seconds > 0 else { return }
        instant.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Moves the clock forward by `seconds` and returns without waiting.
    ///
    /// It yields once, so other tasks of the test get a turn as they would during a real wait.
    public func sleep(for seconds: TimeInterval) async {
        advance(by: seconds)
        await Task.yield()
    }
}
