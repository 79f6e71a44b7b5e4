import Foundation
import Synchronization

/// The one shape of the sandbox's outbox workers: the host's webhook ``DueWorker``-driven
/// dispatcher, its wallet courier, the wallet's notifier. Each keeps its queue in a table and
/// configures this with what differs (what is due, how one is delivered, its retry schedule):
///
/// - one thread runs the owner's pass and sleeps until the next item is due or ``wake()``
///   (a commit that queued one, a move of the clock, a delivery that ended): it never polls;
/// - the items in flight are claimed by key, each with its lane (an endpoint's URL, an order), so
///   a pass skips them and a lane's share of the slots can be counted; a delivery that blocks on
///   the network runs on a thread of its own (``spawn(_:lane:_:)``), released when it ends;
/// - ``stop()`` stops the thread, then waits for the deliveries in flight (at most `drainTimeout`).
///
/// ```swift
/// let worker = OutboxWorker(name: "webhook-dispatcher", concurrency: 16, drainTimeout: .seconds(16))
/// worker.start { [self] in
///     for event in try due(excluding: worker.inFlight) { worker.spawn(event.id, lane: event.url) { deliver(event) } }
///     return DueWorker.sleep(milliseconds: nextDue - now)
/// }
/// ```
public final class OutboxWorker: Sendable {
    /// How many deliveries may be in flight at once.
    public let concurrency: Int
    private let drainTimeout: Duration
    private let thread: DueWorker
    /// Keys in flight, each with its lane.
    private let claims = Mutex<[String: String]>([:])

    public init(name: String, concurrency: Int, drainTimeout: Duration) {
        self.concurrency = concurrency
        self.drainTimeout = drainTimeout
        thread = DueWorker(name: name)
    }

    /// Starts the thread: it runs `pass`, then sleeps as the pass says (see ``DueWorker``).
    public func start(_ pass: @escaping @Sendable () -> DispatchTime?) { thread.start(pass) }

    /// Ends the thread's sleep: it runs its pass again.
    public func wake() { thread.wake() }

    /// Stops the thread after its pass, then waits for the deliveries in flight (at most the drain timeout).
    public func stop() {
        thread.stop()
        let deadline = ContinuousClock.now + drainTimeout
        while !claims.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline { usleep(5_000) }
    }

    /// The keys in flight, each with its lane.
    public var inFlight: [String: String] { claims.withLock { $0 } }

    /// How many more deliveries may start now.
    public var free: Int { concurrency - claims.withLock { $0.count } }

    /// Claims `key` for one delivery; false when it is in flight already.
    public func claim(_ key: String, lane: String = "") -> Bool {
        claims.withLock { claims in
            guard claims[key] == nil else { return false }
            claims[key] = lane
            return true
        }
    }

    /// Lets another delivery take `key`; `wake`: and the thread looks at once at what is left.
    public func release(_ key: String, wake: Bool = true) {
        _ = claims.withLock { $0.removeValue(forKey: key) }
        if wake { thread.wake() }
    }

    /// Claims `key` and runs `delivery` on a thread of its own (a delivery blocks on the network,
    /// and the global queue would not run more of them at once than there are cores); releases it
    /// and wakes the worker when it ends.
    ///
    /// - Returns: false when `key` is in flight already (nothing runs).
    @discardableResult
    public func spawn(_ key: String, lane: String = "", _ delivery: @escaping @Sendable () -> Void) -> Bool {
        guard claim(key, lane: lane) else { return false }
        Thread { [self] in
            delivery()
            release(key)
        }.start()
        return true
    }
}

/// How long an outbox waits after a failed attempt before the next.
public enum RetrySchedule: Sendable, Equatable {
    /// The n-th wait after the n-th failed attempt, in milliseconds; past the table, the last.
    case table([Int64])
    /// `first` doubled after each attempt, at most `longest` (milliseconds).
    case doubling(first: Int64, longest: Int64)

    /// The wait after `attempts` failed attempts (1: after the first).
    public func wait(after attempts: Int) -> Int64 {
        switch self {
        case .table(let waits):
            return waits[min(max(attempts, 1), waits.count) - 1]
        case .doubling(let first, let longest):
            let doublings = min(max(attempts - 1, 0), 30)
            return min(longest, first << Int64(doublings))
        }
    }

    /// How many attempts the table allows before an item fails (nil: it is retried without end).
    public var attempts: Int? {
        if case .table(let waits) = self { return waits.count }
        return nil
    }
}
