import Foundation
import Synchronization
import TapOnMobileSandbox

/// The reader's clock for `tapsim`: the wall clock, except that waits (the customer's two
/// seconds before the tap, prepare's security checks) are skipped by moving this clock forward
/// at once instead of sleeping.
///
/// The reader stamps its reads with this clock plus the host offset it learnt at prepare, so a
/// read is at most a few skipped seconds "ahead" of the host, never behind: the host's 120 s
/// payload rule is unaffected. `--real-time` uses `LiveReaderClock` instead. A `ReaderClock`
/// is a `TimeSource` (the one clock protocol) that can also wait.
///
/// ```swift
/// let clock = SkippingClock()
/// await clock.sleep(for: 40)   // returns at once; clock.now() is 40 s ahead of Date()
/// ```
final class SkippingClock: ReaderClock {
    private let skipped = Mutex<TimeInterval>(0)

    func now() -> Date {
        Date().addingTimeInterval(skipped.withLock { $0 })
    }

    func sleep(for seconds: TimeInterval) async {
        guard seconds > 0 else { return }
        skipped.withLock { $0 += seconds }
        await Task.yield()
    }
}
