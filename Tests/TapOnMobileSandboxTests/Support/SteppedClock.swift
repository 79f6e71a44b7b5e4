import Foundation
import TapOnMobileSandbox

/// A clock whose waits last until the test moves it (NIO's `advanceTime(by:)`): the SDK's QR polls
/// sleep `apmPulling` seconds on it, and the test decides when each next poll happens, so a
/// customer's action always lands between two polls and nothing waits for real time.
///
/// ```swift
/// let clock = SteppedClock()
/// await clock.untilWaiting()      // the SDK sleeps before its next poll
/// clock.advance(by: 5)            // … and now polls
/// ```
final class SteppedClock: ReaderClock, @unchecked Sendable {
    private struct Sleeper {
        let id: Int
        let until: Date
        let continuation: CheckedContinuation<Void, Never>
    }

    private let lock = NSLock()
    private var instant = Date(timeIntervalSince1970: 1_790_000_000)
    private var sleepers: [Sleeper] = []
    private var nextId = 0
    private var waits = 0

    func now() -> Date { lock.withLock { instant } }

    /// How many waits began so far.
    var waitCount: Int { lock.withLock { waits } }

    func sleep(for seconds: TimeInterval) async {
        guard seconds > 0 else { return }
        let id = lock.withLock {
            nextId += 1
            waits += 1
            return nextId
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = lock.withLock {
                    if Task.isCancelled { return true }
                    sleepers.append(Sleeper(id: id, until: instant.addingTimeInterval(seconds), continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let woken = lock.withLock {
                let found = sleepers.filter { $0.id == id }
                sleepers.removeAll { $0.id == id }
                return found
            }
            woken.forEach { $0.continuation.resume() }
        }
    }

    /// Moves time forward and wakes every wait that is due.
    func advance(by seconds: TimeInterval) {
        let due: [Sleeper] = lock.withLock {
            instant = instant.addingTimeInterval(seconds)
            let due = sleepers.filter { $0.until <= instant }
            sleepers.removeAll { $0.until <= instant }
            return due
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Returns once a wait has begun after `count` earlier ones (real time, at most 20 s), or the
    /// calling task is cancelled.
    func untilWaiting(after count: Int? = nil) async {
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline, !Task.isCancelled {
            let ready = lock.withLock { !sleepers.isEmpty && (count.map { waits > $0 } ?? true) }
            if ready { return }
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
    }
}
