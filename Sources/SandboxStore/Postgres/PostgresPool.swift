import CPostgres
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A ``Store``'s connections to PostgreSQL: writes at `SERIALIZABLE`, run again when the server
/// could not serialize them with another replica's (or another thread's) write, reads in one
/// `REPEATABLE READ` snapshot, and the channels a write notified told to every replica.
///
/// A write's body may run more than once: it must do nothing but database work (and compute its
/// result from it), which is what a store's writes are for anyway.
final class PostgresPool: Sendable {
    /// A connection handed to one holder at a time (`@unchecked`: ``Connection`` is not Sendable,
    /// and only the caller that took a box out of `idle` uses it until it is put back).
    final class Box: @unchecked Sendable {
        let connection: Connection
        /// When it was last given back (set under `idle`'s lock).
        var idleSince = ContinuousClock.now
        init(_ connection: Connection) { self.connection = connection }
    }

    /// The connections given back, oldest first (the newest is taken first, so the oldest are the
    /// ones a quieter load leaves idle), and whether a close of the stale ones is due.
    private struct Idle {
        var boxes: [Box] = []
        var closeScheduled = false
    }

    let url: String
    /// The PostgreSQL schema of this store's tables (one database holds every region's), or nil: `public`.
    let schema: String?
    private let idle = Mutex(Idle())
    /// At most this many connections at once, so N replicas stay below the server's `max_connections`.
    private let slots: DispatchSemaphore
    /// This many idle connections stay open however long they wait.
    private let minimumIdle: Int
    /// The others close once idle this long: a burst's connections serve the next burst (opening
    /// one is a new process on the server, and costs more than most sales), and a quiet service
    /// does not keep them.
    private let idleTimeout: Duration
    /// How many writes ran again after a serialization failure, since the store opened.
    let retries = Atomic<UInt64>(0)
    let commits = Atomic<UInt64>(0)
    /// Connections opened since the store opened (the listener's included).
    let opened = Atomic<UInt64>(0)

    /// How many times a write is tried before its serialization failure is the caller's.
    static let maximumAttempts = 30

    init(url: String, schema: String?, maximumConnections: Int, minimumIdle: Int, idleTimeout: Duration) {
        self.url = url
        self.schema = schema
        self.slots = DispatchSemaphore(value: max(1, maximumConnections))
        self.minimumIdle = max(0, minimumIdle)
        self.idleTimeout = max(.zero, idleTimeout)
    }

    /// Runs `body` with a connection of the pool (opened when none is idle).
    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let box = try idle.withLock({ $0.boxes.popLast() }) ?? Box(open())
        defer {
            if !box.connection.isInTransaction, box.connection.postgres?.isHealthy == true { giveBack(box) }
        }
        return try body(box.connection)
    }

    /// Keeps `box` for the next caller; the stale ones beyond the minimum close now, and a close
    /// is scheduled for when the oldest of the rest turns stale.
    private func giveBack(_ box: Box) {
        let (stale, due) = idle.withLock { idle -> ([Box], Duration?) in
            box.idleSince = .now
            idle.boxes.append(box)
            let (stale, due) = prune(&idle)
            guard let due, !idle.closeScheduled else { return (stale, nil) }
            idle.closeScheduled = true
            return (stale, due)
        }
        Self.close(stale)
        if let due { scheduleClose(after: due) }
    }

    /// Wakes when the oldest idle connection beyond the minimum turns stale (never on an
    /// interval): closes the stale ones, and schedules itself again while some are beyond it.
    private func scheduleClose(after delay: Duration) {
        let (seconds, attoseconds) = max(delay, .zero).components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
            guard let self else { return }
            let (stale, next) = idle.withLock { idle in
                let (stale, next) = prune(&idle)
                if next == nil { idle.closeScheduled = false }
                return (stale, next)
            }
            Self.close(stale)
            if let next { scheduleClose(after: next) }
        }
    }

    /// Takes out the connections idle for the timeout beyond the minimum, and says how long until
    /// the oldest of those still beyond it turns stale (nil: none is).
    private func prune(_ idle: inout Idle) -> (stale: [Box], due: Duration?) {
        let stale = Self.takeStale(&idle, minimum: minimumIdle, idleFor: idleTimeout, now: .now)
        guard idle.boxes.count > minimumIdle else { return (stale, nil) }
        return (stale, idle.boxes[0].idleSince + idleTimeout - .now)
    }

    /// Removes from `idle` (oldest first, keeping `minimum`) the connections idle `idleFor` or
    /// longer at `now`; they close when the caller lets go of them, outside the lock.
    private static func takeStale(
        _ idle: inout Idle, minimum: Int, idleFor: Duration, now: ContinuousClock.Instant
    ) -> [Box] {
        var count = 0
        while idle.boxes.count - count > minimum, idle.boxes[count].idleSince + idleFor <= now { count += 1 }
        let stale = Array(idle.boxes[..<count])
        idle.boxes.removeFirst(count)
        return stale
    }

    /// Closes the idle connections beyond the minimum that have waited `idleFor` or longer (what
    /// the pool does by itself once they wait its idle timeout).
    func closeIdle(idleFor: Duration) {
        Self.close(idle.withLock { Self.takeStale(&$0, minimum: minimumIdle, idleFor: idleFor, now: .now) })
    }

    /// Closes the idle connections (those in use close when given back, being over the limit
    /// no more than now: they are simply kept again).
    func closeIdle() {
        Self.close(idle.withLock { idle -> [Box] in
            defer { idle.boxes = [] }
            return idle.boxes
        })
    }

    /// Lets go of `boxes` taken out of `idle`, outside its lock: each connection closes (a message
    /// to the server) as its last reference goes.
    private static func close(_ boxes: consuming [Box]) {}

    /// Idle connections now.
    var idleCount: Int { idle.withLock { $0.boxes.count } }

    /// A new connection, its tables found in ``schema``.
    func open() throws -> Connection {
        let connection = try Connection(postgres: url)
        opened.add(1, ordering: .relaxed)
        if let schema {
            do {
                try connection.execute("CREATE SCHEMA IF NOT EXISTS \(schema)")
            } catch let error as DatabaseError where error.isConstraintViolation {
                // Another replica created it at the same moment (IF NOT EXISTS does not cover that race).
            }
            try connection.execute("SET search_path TO \(schema)")
        }
        return connection
    }

    /// Whether `name` may name a schema as it is (lower-case letters, digits and `_`, as region ids become).
    static func isPlainName(_ name: String) -> Bool {
        (1...63).contains(name.utf8.count) && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
            && !(0x30...0x39).contains(name.utf8.first!)
    }

    /// Runs `body` in a serializable transaction, again while the server asks for it; returns
    /// once committed (PostgreSQL's commit is durable as its `synchronous_commit` says: on by
    /// default, on a synchronous standby too where one is configured).
    ///
    /// - Returns: what `body` returned, and the channels it notified.
    func write<T>(_ body: (Connection) throws -> T) throws -> (T, Set<String>) {
        try withConnection { db in
            var attempt = 0
            while true {
                attempt += 1
                db.notifications = []
                do {
                    let value = try db.inTransaction(.immediate) { db in
                        let value = try body(db)
                        // Other replicas' LISTEN connections hear it when (and only if) this commits.
                        for channel in db.notifications.sorted() {
                            try db.run("SELECT pg_notify(?, '')", [.text(channelName(channel))])
                        }
                        return value
                    }
                    commits.add(1, ordering: .relaxed)
                    let channels = db.notifications
                    db.notifications = []
                    return (value, channels)
                } catch let error as DatabaseError where error.isRetryable && attempt < Self.maximumAttempts {
                    retries.add(1, ordering: .relaxed)
                    // A little random wait, growing, so that two replicas that collided do not collide again.
                    let ceiling = min(50_000, 500 << min(attempt, 7))
                    usleep(UInt32.random(in: 0...UInt32(ceiling)))
                }
            }
        }
    }

    func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try withConnection { db in try db.inTransaction(.deferred, body) }
    }

    /// A store's channel as a PostgreSQL identifier of its schema: letters, digits and `_` only.
    func channelName(_ channel: String) -> String {
        "sandbox_" + (schema.map { $0 + "_" } ?? "") + String(channel.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "_" })
    }
}

/// Hears the channels other replicas notified (PostgreSQL's `LISTEN`), on a thread of its own
/// with a connection of its own, and tells the store's listeners. Where `LISTEN` is not carried
/// (a pooler in transaction mode, some compatible engines), it falls back to telling every
/// listener each `fallback` interval, which only costs the workers a look at what is due.
final class PostgresListener: @unchecked Sendable {
    private let pool: PostgresPool
    private let tell: @Sendable (Set<String>) -> Void
    private let fallback: Duration
    private let lock = NSLock()
    // Under `lock`:
    private var channels: Set<String> = []
    private var listening: Set<String> = []
    private var stopping = false
    private var thread: Thread?
    /// Written by the thread after its LISTENs failed, so that it wakes on `fallback`.
    private var polling = false

    /// A pipe that `add` and `stop` write a byte to, so the thread wakes for them at once.
    private var wake: [Int32] = [-1, -1]

    init(pool: PostgresPool, fallback: Duration, tell: @escaping @Sendable (Set<String>) -> Void) {
        self.pool = pool
        self.fallback = fallback
        self.tell = tell
        _ = pipe(&wake)
    }

    deinit {
        close(wake[0])
        close(wake[1])
    }

    private func poke() {
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
    }

    /// Starts listening to `channel` too (the thread starts on the first).
    func add(_ channel: String) {
        lock.lock()
        channels.insert(channel)
        if thread == nil {
            let thread = Thread { [weak self] in self?.run() }
            thread.name = "postgres-listen"
            self.thread = thread
            thread.start()
        }
        lock.unlock()
        poke()
    }

    func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
        poke()
    }

    private func run() {
        var connection: Connection?
        while true {
            lock.lock()
            let stop = stopping
            let wanted = channels
            lock.unlock()
            if stop { return }
            if connection == nil || connection?.postgres?.isHealthy != true {
                connection = try? pool.open()
                listening = []
                if connection == nil {
                    // The server is away: the workers look once, then we try again.
                    tell(wanted)
                    Thread.sleep(forTimeInterval: Double(fallback.components.seconds))
                    continue
                }
            }
            guard let connection, let session = connection.postgres else { continue }
            let added = wanted.subtracting(listening)
            for channel in added {
                do {
                    try connection.execute("LISTEN \(pool.channelName(channel))")
                    listening.insert(channel)
                } catch {
                    polling = true
                }
            }
            // What was notified before these LISTENs (or while no connection listened) is
            // unknown: their workers look once.
            if !added.isEmpty { tell(added) }
            var descriptors = [
                pollfd(fd: PQsocket(session.conn), events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0),
            ]
            // Asleep until a notification, an `add` or a `stop` (or, polling, the fallback's time).
            let ready = poll(&descriptors, 2, polling ? Int32(fallback.components.seconds * 1000) : -1)
            if descriptors[1].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                _ = read(wake[0], &drain, drain.count)
            }
            if ready > 0, descriptors[0].revents != 0 {
                PQconsumeInput(session.conn)
                var heard: Set<String> = []
                while let notice = PQnotifies(session.conn) {
                    let name = String(cString: notice.pointee.relname)
                    if let channel = wanted.first(where: { pool.channelName($0) == name }) { heard.insert(channel) }
                    PQfreemem(notice)
                }
                if !heard.isEmpty { tell(heard) }
            } else if ready == 0, polling {
                tell(wanted)
            }
        }
    }
}
