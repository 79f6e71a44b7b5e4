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

    /// Waits until the next broadcast or `deadline`, whichever is first.
    func wait(until deadline: Date) {
        condition.lock()
        let seen = generation
        while generation == seen, condition.wait(until: deadline) {}
        condition.unlock()
    }
}
