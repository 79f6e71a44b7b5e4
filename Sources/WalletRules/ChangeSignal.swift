import WalletStorage
import Foundation

/// Tells threads that wait for a change (the notifier for a new notification, a customer's Pay
/// for the host's answer) that something changed, so they look again at once instead of polling.
///
/// Take ``mark`` before looking, then ``wait(after:until:)`` with it: a change between the look
/// and the wait is not missed.
package final class ChangeSignal: @unchecked Sendable {
    // @unchecked: `generation` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var generation: UInt64 = 0
    private var observer: (@Sendable () -> Void)?

    /// Also tells `observer` of every change from now on (nil: no more): an ``OutboxWorker`` that
    /// sleeps on its own wake-up.
    package func observe(_ observer: (@Sendable () -> Void)?) {
        condition.lock()
        self.observer = observer
        condition.unlock()
    }

    package func broadcast() {
        condition.lock()
        generation &+= 1
        let observer = observer
        condition.unlock()
        observer?()
        // Once unlocked: threads woken while the lock is held wake only to wait for it.
        condition.broadcast()
    }

    /// How many changes there were so far.
    package var mark: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return generation
    }

    /// Waits until there was a change after `mark`, or `deadline` (nil: none), whichever is first.
    package func wait(after mark: UInt64, until deadline: Date?) {
        condition.lock()
        if let deadline {
            while generation == mark, condition.wait(until: deadline) {}
        } else {
            // Not `wait(until: .distantFuture)`: Foundation on Linux traps converting it to a timespec.
            while generation == mark { condition.wait() }
        }
        condition.unlock()
    }
}
