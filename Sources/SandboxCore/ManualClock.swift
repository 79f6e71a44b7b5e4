import SandboxTime
import Foundation
import Synchronization

/// A clock that never moves by itself: tests step it explicitly.
public final class ManualClock: TimeSource {
    private let instant: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        instant = Mutex(start)
    }

    public func now() -> Date { instant.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        instant.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
