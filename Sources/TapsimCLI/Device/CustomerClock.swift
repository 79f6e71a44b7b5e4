import Foundation
import Synchronization
import TapOnMobileSandbox

/// The clock `tapsim qr` polls on: the wall clock, because a real customer takes real time to
/// scan and pay, until ``hurry()`` says the customer's part is over (tapsim pressed the wallet's
/// button itself and the order is decided); from then on waits are skipped, so the SDK's next
/// poll reads the outcome at once instead of `apmPulling` seconds later.
///
/// ```swift
/// let clock = CustomerClock()
/// await clock.sleep(for: 5)   // really waits, in slices, until hurry() is called
/// clock.hurry()               // a waiting sleep returns within a slice; later ones at once
/// ```
final class CustomerClock: ReaderClock {
    private struct State {
        var skipped: TimeInterval = 0
        var hurried = false
    }

    private let state = Mutex(State())
    /// How often a real wait looks whether it was hurried.
    private let slice: TimeInterval = 0.05

    func now() -> Date {
        Date().addingTimeInterval(state.withLock { $0.skipped })
    }

    func hurry() {
        state.withLock { $0.hurried = true }
    }

    func sleep(for seconds: TimeInterval) async {
        guard seconds > 0 else { return }
        let end = Date().addingTimeInterval(seconds)
        while true {
            let left = end.timeIntervalSinceNow
            if left <= 0 || Task.isCancelled { return }
            let hurried = state.withLock { state in
                guard state.hurried else { return false }
                state.skipped += left
                return true
            }
            if hurried {
                await Task.yield()
                return
            }
            try? await Task.sleep(nanoseconds: UInt64(min(left, slice) * 1_000_000_000))
        }
    }
}
