import Foundation

/// Tells threads that wait for an order to change (a customer's Pay waiting for the host's
/// answer) that something changed, so they look again at once instead of polling.
final class ChangeSignal: @unchecked Sendable {
    // @unchecked: `generation` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var generation: UInt64 = 0

    func broadcast() {
        condition.lock()
        generation &+= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The count of broadcasts so far: read it before looking at the state, then ``wait(until:since:)``
    /// returns at once for a change that came in between (no wake-up is lost).
    var generationNow: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return generation
    }

    /// Waits until a broadcast after the one numbered `seen` (now, if one came already) or `deadline`.
    func wait(until deadline: Date, since seen: UInt64) {
        condition.lock()
        while generation == seen, condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Waits until the next broadcast or `deadline`, whichever is first.
    func wait(until deadline: Date) {
        wait(until: deadline, since: generationNow)
    }
}
