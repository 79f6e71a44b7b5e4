import Foundation
import Synchronization
import TapOnMobileSandbox

/// The clock QR and BLIK payments and refunds poll on: the wall clock, because a real customer
/// takes real time to scan and pay and a wallet real time to answer, until ``hurry()`` says the
/// customer's part is over (tapsim pressed the wallet's button itself and the order is decided);
/// from then on waits are skipped, so the SDK's next poll reads the outcome at once instead of
/// `apmPulling` seconds later.
///
/// With a `pace` (tapsim without `--real-time`) no wait lasts longer than it: the SDK polls every
/// `pace` seconds instead of every `apmPulling` (5 s for QR, 3 s for BLIK), so a refund or a
/// payment decided on the wallet's page shows as soon as it is decided. Deadlines stay on the
/// wall clock: a customer who never answers still takes the terminal's `apmTimeout`.
///
/// ```swift
/// let clock = CustomerClock(pace: nil)
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
    /// The longest a wait lasts, or nil for the whole of it.
    let pace: TimeInterval?

    init(pace: TimeInterval?) {
        self.pace = pace
    }

    func now() -> Date {
        Date().addingTimeInterval(state.withLock { $0.skipped })
    }

    func hurry() {
        state.withLock { $0.hurried = true }
    }

    func sleep(for seconds: TimeInterval) async {
        guard seconds > 0 else { return }
        let end = Date().addingTimeInterval(pace.map { min($0, seconds) } ?? seconds)
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
