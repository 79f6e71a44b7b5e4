import SandboxTime
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The deadlines libmicrohttpd does not keep: its timeout restarts on every byte, so a client that
/// trickles a header line every few seconds (or a body byte) holds its connection forever. Each
/// connection's request head must be whole within `headSeconds` of the connection opening (or
/// within `keepAliveSeconds` of its previous answer), and a body must keep `minimumBodyRate` bytes a
/// second after `headSeconds` of grace; a connection past either is shut down (libmicrohttpd then
/// closes it). A sweeper thread checks once a second on `clock`, which tests move instead of waiting,
/// while connections are open; with none open it sleeps until one opens.
final class ConnectionDeadlines: @unchecked Sendable {
    let clock: any TimeSource
    let headSeconds: Int
    let keepAliveSeconds: Int
    let minimumBodyRate: Int
    /// Open connections by identity, under `lock`. A socket is shut down only under the lock and
    /// only while its connection is listed: libmicrohttpd closes it after the connection leaves.
    private var open: [ObjectIdentifier: ConnectionWatch] = [:]
    private let lock = NSLock()
    private let wake = NSCondition()
    private var stopping = false
    private var sweeper: Thread?

    /// Past this many open connections, each new one makes room: the idle connection (waiting for
    /// a request head) open longest of the address that holds the most is shut down. So clients
    /// that hoard connections from several addresses take turns among themselves, and the
    /// service's last slots stay free for everyone else. Nil: no such rule (tests of the deadlines).
    let crowdedAbove: Int?

    init(clock: any TimeSource, headSeconds: Int, keepAliveSeconds: Int, minimumBodyRate: Int, crowdedAbove: Int? = nil) {
        self.crowdedAbove = crowdedAbove
        self.clock = clock
        self.headSeconds = headSeconds
        self.keepAliveSeconds = max(headSeconds, keepAliveSeconds)
        self.minimumBodyRate = max(1, minimumBodyRate)
    }

    var now: Int64 { clock.nowMilliseconds() }

    /// Connections open now.
    var count: Int { lock.withLock { open.count } }

    /// What each open connection is doing and how much of its body came (tests wait for a phase).
    var phases: [(ConnectionWatch.Phase, received: Int)] { lock.withLock { open.values.map { ($0.phase, $0.received) } } }

    func opened(_ watch: ConnectionWatch) {
        let first = lock.withLock {
            defer {
                open[ObjectIdentifier(watch)] = watch
                if let crowdedAbove, open.count > crowdedAbove { makeRoom() }
            }
            return open.isEmpty
        }
        if first {
            // The sweeper may be asleep with nothing to watch.
            wake.lock()
            wake.signal()
            wake.unlock()
        }
    }

    func closed(_ watch: ConnectionWatch) {
        _ = lock.withLock { open.removeValue(forKey: ObjectIdentifier(watch)) }
    }

    /// Shuts down the longest-idle connection of the address that holds the most, if it holds more
    /// than one and has one waiting for a request head (one mid-request is never cut). Under `lock`.
    private func makeRoom() {
        var held: [String: Int] = [:]
        for watch in open.values where !watch.cutOff.load(ordering: .relaxed) { held[watch.address, default: 0] += 1 }
        guard let (address, count) = held.max(by: { $0.value < $1.value }), count > 1 else { return }
        let idle = open.values.filter { $0.address == address && $0.phase == .head && !$0.cutOff.load(ordering: .relaxed) }
        guard let oldest = idle.min(by: { $0.since < $1.since }), !oldest.cutOff.exchange(true, ordering: .relaxed) else { return }
        shutdown(oldest.socket, Int32(SHUT_RDWR))
    }

    /// Shuts down every connection past its deadline; returns how many.
    @discardableResult
    func enforce() -> Int {
        let now = self.now
        return lock.withLock {
            var cut = 0
            for watch in open.values where isOverdue(watch, now: now) {
                if !watch.cutOff.exchange(true, ordering: .relaxed) {
                    shutdown(watch.socket, Int32(SHUT_RDWR))
                    cut += 1
                }
            }
            return cut
        }
    }

    func isOverdue(_ watch: ConnectionWatch, now: Int64) -> Bool {
        let elapsed = now - watch.since
        switch watch.phase {
        case .head:
            return elapsed > Int64(watch.keptAlive ? keepAliveSeconds : headSeconds) * 1000
        case .body:
            // Whatever has arrived buys time at the minimum rate, after the grace period.
            let earned = Int64(watch.received) * 1000 / Int64(minimumBodyRate)
            return elapsed > Int64(headSeconds) * 1000 + earned
        case .busy:
            return false
        }
    }

    func startSweeping() {
        let thread = Thread { [self] in
            Thread.current.name = "http-deadlines"
            wake.lock()
            while !stopping {
                wake.unlock()
                enforce()
                wake.lock()
                if stopping {
                    break
                } else if count == 0 {
                    // Nothing to watch: an idle server does not wake every second (`opened` signals).
                    wake.wait()
                } else {
                    _ = wake.wait(until: Date(timeIntervalSinceNow: 1))
                }
            }
            wake.unlock()
        }
        sweeper = thread
        thread.start()
    }

    func stopSweeping() {
        wake.lock()
        stopping = true
        wake.signal()
        wake.unlock()
    }
}
