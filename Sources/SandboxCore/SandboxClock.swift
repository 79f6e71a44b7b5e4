import SandboxTime
import Foundation
import SandboxWire
import Synchronization

/// The one source of "now" for a host: the wall clock plus an offset that the sandbox-control
/// API can move forward or set, or take back to real time.
///
/// Every expiry rule (sessions, BLIK codes, card payloads, webhook retries) reads time from
/// this injected clock, so tests and testers move time instead of waiting.
///
/// ```swift
/// let clock = SandboxClock()
/// clock.advance(by: 600)   // ten minutes later, at once
/// ```
public final class SandboxClock: TimeSource {
    private let base: @Sendable () -> Date
    /// The offset in seconds, as the bits of a `Double`: every request reads it, from several
    /// threads at once, so it is an atomic rather than a lock; moves are compare-and-swap loops.
    private let offsetBits = Atomic<UInt64>(TimeInterval(0).bitPattern)
    /// Told after every move: workers that sleep until a due time on this clock wake to look again.
    private let moveObservers = Mutex<[@Sendable () -> Void]>([])

    /// Calls `observer` after every move of this clock (``advance(by:)``, ``set(to:)``).
    public func observeMoves(_ observer: @escaping @Sendable () -> Void) {
        moveObservers.withLock { $0.append(observer) }
    }

    /// - Parameter base: where real time comes from; tests pass a fixed instant.
    public init(base: @escaping @Sendable () -> Date = { Date() }) {
        self.base = base
    }

    public func now() -> Date {
        base().addingTimeInterval(skew)
    }

    /// Moves the clock forward (never backward: expiry rules assume time only grows).
    public func advance(by seconds: TimeInterval) {
        precondition(seconds >= 0, "a sandbox clock only moves forward")
        move { offset in offset + seconds }
    }

    /// Sets the clock to an instant at or after the current one.
    ///
    /// - Returns: false when `date` lies in the past of this clock, which is refused.
    @discardableResult
    public func set(to date: Date) -> Bool {
        move { offset in
            let current = base().addingTimeInterval(offset)
            guard date >= current else { return nil }
            return offset + date.timeIntervalSince(current)
        }
    }

    /// Goes back to real time (offset 0): the one move backward, which a tester asks for
    /// explicitly. What was stamped on the moved clock stays as stamped, and deadlines set on it
    /// (sessions, codes, retries) come that much later in real time.
    public func returnToRealTime() {
        move { offset in offset == 0 ? nil : 0 }
    }

    /// Takes up an offset kept from before a restart, so the clock does not go back: it only ever
    /// moves the clock forward.
    public func resume(offset seconds: TimeInterval) {
        move { offset in seconds > offset ? seconds : nil }
    }

    /// Takes the offset of a restored snapshot, forward or back: the sandbox is as it was when the
    /// snapshot was saved, its clock included.
    public func restore(offset seconds: TimeInterval) {
        move { offset in seconds == offset ? nil : seconds }
    }

    /// How far this clock runs ahead of its base, in seconds.
    public var skew: TimeInterval { TimeInterval(bitPattern: offsetBits.load(ordering: .acquiring)) }

    /// Replaces the offset with what `change` makes of it (nil: leave it), as one atomic step.
    @discardableResult
    private func move(_ change: (TimeInterval) -> TimeInterval?) -> Bool {
        var bits = offsetBits.load(ordering: .acquiring)
        while true {
            guard let moved = change(TimeInterval(bitPattern: bits)) else { return false }
            let (exchanged, original) = offsetBits.compareExchange(
                expected: bits, desired: moved.bitPattern, ordering: .acquiringAndReleasing)
            if exchanged {
                for observer in moveObservers.withLock({ $0 }) { observer() }
                return true
            }
            bits = original
        }
    }
}

/// Why `POST /_sandbox/clock` refused a move: its message and the field it names (a 400 `invalid_request`).
public struct ClockMoveRefusal: Error, Sendable {
    public let message: String
    public let field: String
}

extension SandboxClock {
    /// Carries out the body of `POST /_sandbox/clock`, the same on a host and on the wallet: exactly
    /// one of `advanceSeconds` (0 to ten years, far beyond any rule here), `set` (ISO 8601, not in
    /// this clock's past) and `realTime: true` (``returnToRealTime()``).
    ///
    /// ```swift
    /// try clock.move(advanceSeconds: 600, set: nil, realTime: nil)   // ten minutes later
    /// ```
    public func move(advanceSeconds: Double?, set: String?, realTime: Bool?) throws(ClockMoveRefusal) {
        switch (advanceSeconds, set, realTime) {
        case (nil, nil, true?):
            returnToRealTime()
        case (let seconds?, nil, nil):
            guard seconds.isFinite, (0...315_360_000).contains(seconds) else {
                throw ClockMoveRefusal(message: "advanceSeconds must be from 0 to 315360000.", field: "advanceSeconds")
            }
            advance(by: seconds)
        case (nil, let text?, nil):
            // RFC 3339 allows a lower-case `t` and `z`; a `+` that a form turned into a space is read back.
            guard let date = WireTime.date(from: text.replacingOccurrences(of: " ", with: "+").uppercased()) else {
                throw ClockMoveRefusal(message: "set must be an ISO 8601 time such as 2026-12-01T10:00:00Z.", field: "set")
            }
            guard self.set(to: date) else { throw ClockMoveRefusal(message: "The sandbox clock only moves forward.", field: "set") }
        default:
            throw ClockMoveRefusal(message: "Give exactly one of advanceSeconds, set and realTime: true.", field: "advanceSeconds")
        }
    }
}
