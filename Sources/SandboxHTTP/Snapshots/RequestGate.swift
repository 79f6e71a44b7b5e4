import Dispatch
import Foundation
import SandboxWire

/// A door in front of a service's routes that a restore closes: while it is closed no request
/// runs (none sees a state half brought back), and a request that comes meanwhile waits for it
/// to open, or after ``waitLimit`` gets 503 `restore_in_progress` with `Retry-After`.
///
/// ```swift
/// let gate = RequestGate()
/// let server = Server(name: "EU", configuration: configuration, responder: gate.guarding(router))
/// // in the restore route, which runs inside the gate:
/// try gate.alone { try store.restore(from: path) }
/// ```
///
/// Waiting requests hold no thread: they are parked and sent on when the gate opens.
public final class RequestGate: @unchecked Sendable {
    /// How long a request waits for a restore before it is refused.
    public let waitLimit: DispatchTimeInterval
    private let lock = NSCondition()
    /// Requests inside the gate (answered or not yet).
    private var inFlight = 0
    private var closed = false
    private var parked: [UInt64: @Sendable () -> Void] = [:]
    private var nextTicket: UInt64 = 0

    public init(waitLimit: DispatchTimeInterval = .seconds(5)) {
        self.waitLimit = waitLimit
    }

    /// Whether a restore holds the gate closed now.
    public var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return closed
    }

    /// `inner`'s routes behind this gate.
    public func guarding(_ inner: any Responder) -> some Responder { Guarded(inner: inner, gate: self) }

    private struct Guarded: Responder {
        let inner: any Responder
        let gate: RequestGate

        func respond(to request: Request) -> Response {
            final class Box: @unchecked Sendable { var response = Response() }
            let box = Box(), done = DispatchSemaphore(value: 0)
            respond(to: request) { answer in
                box.response = answer()
                done.signal()
            }
            done.wait()
            return box.response
        }

        func respond(to request: Request, reply: @escaping @Sendable (@escaping Answering) -> Void) {
            let inner = inner, gate = gate
            gate.enter(reply: reply) {
                inner.respond(to: request) { answer in
                    gate.leave()
                    reply(answer)
                }
            }
        }
    }

    /// The answer to a request that waited ``waitLimit`` for a restore, or to a restore that
    /// waited as long for the requests under way to end.
    public static let restoring = HTTPError(
        status: 503, code: .restoreInProgress,
        message: "A snapshot is being restored on this service: try again in a moment.", headers: [("Retry-After", "1")])

    /// Runs `send` now, or once the gate opens; answers 503 through `reply` if that takes longer
    /// than ``waitLimit``.
    private func enter(reply: @escaping @Sendable (@escaping Answering) -> Void, send: @escaping @Sendable () -> Void) {
        lock.lock()
        guard closed else {
            inFlight += 1
            lock.unlock()
            return send()
        }
        let ticket = nextTicket
        nextTicket += 1
        parked[ticket] = send
        lock.unlock()
        DispatchQueue.global().asyncAfter(deadline: .now() + waitLimit) { [self] in
            lock.lock()
            let stillParked = parked.removeValue(forKey: ticket) != nil
            lock.unlock()
            if stillParked { reply { Self.restoring.response } }
        }
    }

    private func leave() {
        lock.lock()
        inFlight -= 1
        lock.broadcast()
        lock.unlock()
    }

    /// Runs `body` with the gate closed and no other request under way: it waits for the requests
    /// inside to end (the caller's own request does not count), parks those that come, and sends
    /// them on when `body` returns. Called from a request inside the gate.
    ///
    /// - Throws: ``restoring`` when the requests under way did not end within ``waitLimit`` (nothing
    ///   ran); otherwise what `body` threw.
    public func alone<T>(_ body: () throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(waitLimit.seconds)
        lock.lock()
        // The caller's own request steps out, so two restores at once take turns instead of
        // waiting for each other.
        inFlight -= 1
        while closed {
            guard lock.wait(until: deadline) else {
                inFlight += 1
                lock.unlock()
                throw Self.restoring
            }
        }
        closed = true
        while inFlight > 0 {
            guard lock.wait(until: deadline) else {
                reopen(andEnter: true)
                throw Self.restoring
            }
        }
        lock.unlock()
        defer {
            lock.lock()
            reopen(andEnter: true)
        }
        return try body()
    }

    /// Opens the gate (the lock held; released here) and sends the parked requests on.
    private func reopen(andEnter enter: Bool) {
        closed = false
        if enter { inFlight += 1 }
        let waiting = parked.sorted { $0.key < $1.key }.map(\.value)
        parked.removeAll()
        inFlight += waiting.count
        lock.broadcast()
        lock.unlock()
        for send in waiting { DispatchQueue.global().async(execute: send) }
    }
}

extension DispatchTimeInterval {
    fileprivate var seconds: Double {
        switch self {
        case .seconds(let s): Double(s)
        case .milliseconds(let ms): Double(ms) / 1_000
        case .microseconds(let us): Double(us) / 1_000_000
        case .nanoseconds(let ns): Double(ns) / 1_000_000_000
        case .never: .infinity
        @unknown default: 5
        }
    }
}
