import HostStorage
import SandboxTime
import Foundation
import SandboxCore
import SandboxStore
import Synchronization

/// Delivers the calls the host owes the wallet (``WalletCalls``: close an order, ask for a
/// refund) and applies QR deadlines with nobody polling (``APMPayments/sweep()``), on one thread.
///
/// A call is done once the wallet answered it with anything but a 5xx (a `409 order_paid` to a
/// close is an answer: the host's decision stands, and the wallet refuses the payment it no longer
/// may take). Until then it is tried again after 0.5 s, 1 s, 2 s … up to every 30 s of real time,
/// however the sandbox clock moves, and across restarts: the queue is a table.
package final class WalletCourier: Sendable {
    /// Waits after the first, second, … attempt without an answer, in real milliseconds; then every 30 s.
    package static let backoff = RetrySchedule.table([500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000])

    package let store: Store
    package let wallet: WalletClient
    package let apm: APMPayments
    /// Real time: the backoff of a wallet that is down does not follow the sandbox clock.
    package let wallClock: any TimeSource
    /// One call at a time, on the worker's own thread (the wallet answers in milliseconds).
    private let worker = OutboxWorker(name: "wallet-courier", concurrency: 1, drainTimeout: .seconds(0))

    package init(store: Store, wallet: WalletClient, apm: APMPayments, wallClock: any TimeSource) {
        self.store = store
        self.wallet = wallet
        self.apm = apm
        self.wallClock = wallClock
    }

    /// Starts the thread: it applies the deadlines that came and delivers the calls that are due,
    /// then sleeps until the next of either (a call's time on the real clock, a deadline on the
    /// sandbox clock) or until ``wake()``: a commit that owes a call or sets a deadline, a move of
    /// the sandbox clock, a route that just wrote one. It never polls.
    package func start() { worker.start { [self] in idleUntil() } }

    /// Stops the thread after the call under way (at most the wallet client's 2 s timeout).
    package func stop() { worker.stop() }

    /// Looks at the queue and the deadlines now.
    package func wake() { worker.wake() }

    /// One pass: what is due is done; then how long the thread may sleep (nil: look again now).
    private func idleUntil() -> DispatchTime? {
        do {
            if try apm.sweep() + deliverDue() > 0 { return nil }
            let (call, deadline) = try store.read { db in (try db.apm.nextCallDue(), try db.apm.nextDeadline()) }
            let waits = [call.map { $0 - wallClock.nowMilliseconds() }, deadline.map { $0 - apm.payments.now() }]
            return DueWorker.sleep(milliseconds: waits.compactMap { $0 }.min())
        } catch {
            // A database that cannot be read or written now (a reset under way) is tried again in a second.
            return .now() + .seconds(1)
        }
    }

    /// Sends every call due now, oldest first, and records each answer.
    ///
    /// - Returns: how many it sent.
    @discardableResult
    package func deliverDue() throws -> Int {
        let due = try store.read { db in try db.apm.dueCalls(at: wallClock.nowMilliseconds(), limit: 32) }
        var sent = 0
        for call in due {
            // Held first (replicas share the queue; a sender that dies lets go when the hold ends).
            let claimedAt = wallClock.nowMilliseconds()
            let held = claimedAt + Self.hold
            guard try store.write({ db in try db.apm.claimCall(call.seq, due: claimedAt, until: held) }) else { continue }
            let answer = wallet.send(.post, call.path, body: call.body)
            let attempts = call.attempts + 1
            let now = wallClock.nowMilliseconds()
            try store.write { db in
                switch answer {
                case .answered(let status, _) where status < 500:
                    try db.apm.markAnswered(call.seq, status: status, attempts: attempts, at: now, heldUntil: held)
                case .answered(let status, let body):
                    try db.apm.reschedule(
                        call.seq, attempts: attempts, status: status, error: String(decoding: body.prefix(256), as: UTF8.self),
                        next: now + Self.wait(after: attempts), heldUntil: held)
                case .unanswered(let why):
                    try db.apm.reschedule(
                        call.seq, attempts: attempts, status: nil, error: why, next: now + Self.wait(after: attempts), heldUntil: held)
                }
            }
            sent += 1
        }
        return sent
    }

    package static func wait(after attempts: Int) -> Int64 { backoff.wait(after: attempts) }

    /// How long a call is held by its sender (real time, ms): far past the wallet client's 2 s.
    package static let hold: Int64 = 30_000
}
