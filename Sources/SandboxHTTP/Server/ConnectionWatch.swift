import Foundation
import Synchronization

/// What one connection is doing, for ``ConnectionDeadlines``: waiting for a request head, reading
/// a body, or neither (a handler has the request, or its answer is going out). libmicrohttpd holds
/// it as the connection's socket context; its polling thread writes it, the sweeper reads it.
final class ConnectionWatch: Sendable {
    enum Phase: UInt8 {
        /// Waiting for a request head that must be whole by `since` + the head allowance.
        case head = 0
        /// Reading a body that must keep up a minimum rate since `since`.
        case body = 1
        /// A handler has the request or its answer is being sent: no deadline here.
        case busy = 2
    }

    /// The connection's socket, to shut down when a deadline passes (libmicrohttpd then closes it).
    let socket: Int32
    /// The peer's address (`127.0.0.2`), whose share of the connections ``ConnectionDeadlines`` weighs.
    let address: String
    private let phaseValue = Atomic<UInt8>(Phase.head.rawValue)
    /// When the phase began, in milliseconds of the deadline clock.
    private let sinceValue = Atomic<Int64>(0)
    /// Body bytes received in the body phase.
    private let receivedValue = Atomic<Int>(0)
    /// True once a request was answered: the next head waits as long as the idle timeout allows.
    private let keptAliveValue = Atomic<Bool>(false)
    /// Set when a deadline cut the connection, so it is shut down once.
    let cutOff = Atomic<Bool>(false)

    init(socket: Int32, address: String = "", now: Int64) {
        self.socket = socket
        self.address = address
        sinceValue.store(now, ordering: .relaxed)
    }

    var phase: Phase { Phase(rawValue: phaseValue.load(ordering: .acquiring)) ?? .busy }
    var since: Int64 { sinceValue.load(ordering: .relaxed) }
    var received: Int { receivedValue.load(ordering: .relaxed) }
    var keptAlive: Bool { keptAliveValue.load(ordering: .relaxed) }

    func enter(_ phase: Phase, at now: Int64) {
        sinceValue.store(now, ordering: .relaxed)
        receivedValue.store(0, ordering: .relaxed)
        phaseValue.store(phase.rawValue, ordering: .releasing)
    }

    /// A request was answered and the connection stays open for the next.
    func answered(at now: Int64) {
        keptAliveValue.store(true, ordering: .relaxed)
        enter(.head, at: now)
    }

    func receive(_ count: Int) {
        receivedValue.add(count, ordering: .relaxed)
    }
}
