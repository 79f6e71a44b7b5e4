import Foundation
import Synchronization

/// A host's database: one SQLite file with one writer and a pool of readers.
///
/// The file runs in WAL mode, and a write returns only once the WAL holding it is synced to
/// disk, so a committed write survives a crash of the process or the machine; readers keep
/// reading while a write is in progress. Writes run one at a time in `BEGIN IMMEDIATE … COMMIT`,
/// writes that queue up meanwhile sharing one commit, and the sync happens while the next
/// writes run (see ``write(_:)``); each read runs in its own
/// transaction on a read-only connection and sees one snapshot.
///
/// ```swift
/// let store = try Store.open(path: ".sandbox/eu.sqlite", migrations: migrations)
/// let id = try store.write { db in
///     try db.run("INSERT INTO payments(amount) VALUES (?)", [1250])
///     return db.lastInsertRowID
/// }
/// let amount: Int64 = try store.read { db in
///     try db.query("SELECT amount FROM payments WHERE rowid = ?", [.integer(id)])[0]["amount"]
/// }
/// ```
///
/// `write` and `read` block the calling thread for the length of the transaction, so keep
/// transactions short; `write(_:then:)` does not block it (an HTTP handler hands its write over
/// and is answered when it is durable). Do not call `write` from inside `write`: it would wait
/// for itself.
public final class Store: Sendable {
    /// Gives a reader connection to whoever holds it, one holder at a time.
    ///
    /// `@unchecked` because `Connection` is not `Sendable`. That is sound here: a reader's box is
    /// used only by the one caller that took it out of `idleReaders` until it puts it back (and the
    /// writer's connection is only touched by the ``WriteQueue``'s thread).
    private final class ConnectionBox: @unchecked Sendable {
        let connection: Connection
        init(_ connection: Connection) { self.connection = connection }
    }

    /// The path of the database file.
    public let path: String

    private let configuration: Configuration
    /// SQLite's writer (nil on PostgreSQL).
    private let writes: WriteQueue!
    /// PostgreSQL's connections (nil on SQLite).
    private let postgres: PostgresPool?
    private let postgresListener: PostgresListener?

    /// The engine beneath.
    public var engine: Connection.Engine { postgres == nil ? .sqlite : .postgres }
    private let full = Atomic<Bool>(false)

    /// Whether the last write failed for want of room (``DatabaseError/isStorageFull``: the disk is
    /// full); the next write that succeeds clears it. A service's health reports it.
    public var isStorageFull: Bool { full.load(ordering: .relaxed) }
    /// Who ``listen(_:_:)`` asked to be woken by which channel.
    private let listeners: Listeners

    private final class Listeners: Sendable {
        private let byChannel = Mutex<[String: [@Sendable () -> Void]]>([:])

        func add(_ channel: String, _ listener: @escaping @Sendable () -> Void) {
            byChannel.withLock { $0[channel, default: []].append(listener) }
        }

        func tell(_ channels: Set<String>) {
            let woken = byChannel.withLock { all in channels.flatMap { all[$0] ?? [] } }
            for listener in woken { listener() }
        }
    }
    private let commits: Commits!
    private let checkpointer: Checkpointer?
    private let idleReaders = Mutex<[ConnectionBox]>([])

    /// The directory ``temporary(migrations:configuration:)`` created, removed with the store.
    private let temporaryDirectory: String?

    private init(path: String, migrations: [Migration], configuration: Configuration, temporaryDirectory: String?) throws {
        let migrator = try Migrator(migrations: migrations)
        let connection = try Connection(path: path, access: .readWrite, busyTimeout: configuration.busyTimeout)
        // WAL lets readers run beside the writer; it is a property of the file and sticks.
        let journalMode: String = try connection.query("PRAGMA journal_mode = WAL")[0][0]
        guard journalMode.lowercased() == "wal" else {
            throw DatabaseError.sqlite.with(message: "cannot switch \(path) to WAL (journal mode is \(journalMode))")
        }
        // NORMAL: COMMIT writes the WAL without syncing it; `write` syncs it right after the commit
        // (see Commits), which is what FULL would do inside COMMIT, while the next writes run.
        try connection.execute("PRAGMA synchronous = NORMAL")
        try connection.execute("PRAGMA wal_autocheckpoint = \(configuration.checkpointPages)")
        try connection.execute("PRAGMA journal_size_limit = \(64 << 20)")
        try migrator.migrate(connection)
        self.commits = try Commits(walPath: path + "-wal")
        self.path = path
        self.configuration = configuration
        let listeners = Listeners()
        self.listeners = listeners
        self.writes = WriteQueue(
            connection: connection, commits: commits, maximumWritesPerCommit: configuration.maximumWritesPerCommit,
            notify: { channels in listeners.tell(channels) })
        let busyTimeout = configuration.busyTimeout
        self.checkpointer = configuration.backgroundCheckpointCommits == 0 ? nil : Checkpointer(
            interval: UInt64(configuration.backgroundCheckpointCommits),
            open: { try Connection(path: path, access: .readWrite, busyTimeout: busyTimeout) })
        self.temporaryDirectory = temporaryDirectory
        self.postgres = nil
        self.postgresListener = nil
        self.url = nil
    }

    private init(postgres url: String, schema: String?, migrations: [Migration], configuration: Configuration) throws {
        let migrator = try Migrator(migrations: migrations)
        if let schema, !PostgresPool.isPlainName(schema) {
            throw DatabaseError.misuse.with(message: "schema '\(schema)' must be lower-case letters, digits and '_'")
        }
        let pool = PostgresPool(
            url: url, schema: schema, maximumConnections: configuration.maximumPostgresConnections,
            minimumIdle: min(configuration.maximumIdleReaders, configuration.maximumIdlePostgresConnections),
            idleTimeout: configuration.postgresIdleTimeout)
        try pool.withConnection { db in _ = try migrator.migrate(db) }
        let listeners = Listeners()
        self.listeners = listeners
        self.postgres = pool
        self.postgresListener = PostgresListener(pool: pool, fallback: configuration.notificationFallback) { listeners.tell($0) }
        self.path = Connection.withoutPassword(url) + (schema.map { " (schema \($0))" } ?? "")
        self.url = url
        self.configuration = configuration
        self.writes = nil
        self.commits = nil
        self.checkpointer = nil
        self.temporaryDirectory = nil
    }

    /// Opens the PostgreSQL database at `url` (`postgres://user@host:5432/sandbox`, or a libpq
    /// connection string such as `host=/tmp/pg dbname=sandbox`) and brings its schema up to date
    /// with `migrations` (PostgreSQL's own list), under an advisory lock so that replicas
    /// starting together migrate once. With `schema`, the tables live in that PostgreSQL schema
    /// (created when missing), so that one database holds several services' stores.
    ///
    /// Several processes may open the same database: every write runs at `SERIALIZABLE` and is
    /// run again when PostgreSQL could not serialize it with another's, and what a write
    /// ``Connection/notify(_:)``'d reaches the listeners of every process.
    public static func open(
        postgres url: String, schema: String? = nil, migrations: [Migration], configuration: Configuration = Configuration()
    ) throws -> Store {
        try Store(postgres: url, schema: schema, migrations: migrations, configuration: configuration)
    }

    /// The PostgreSQL URL this store opened, password and all (nil on SQLite): another store
    /// opened on it is a replica of this one.
    public let url: String?

    deinit {
        // Readers close first: the last connection to close checkpoints the WAL into the file and
        // removes it, which a read-only one cannot do (then the file alone would lack the last writes).
        idleReaders.withLock { $0.removeAll() }
        writes?.stop()
        postgresListener?.stop()
        if let temporaryDirectory {
            try? FileManager.default.removeItem(atPath: temporaryDirectory)
        }
    }

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// The parent directory is created too, so `--data-dir` may name a directory that does not exist yet.
    ///
    /// - Parameters:
    ///   - path: the database file.
    ///   - migrations: every migration of this schema; the pending ones are applied.
    ///   - configuration: reader pool and busy timeout.
    /// - Throws: ``DatabaseError/schemaTooNew`` for a file from a newer build,
    ///   ``DatabaseError/invalidMigrations`` for a bad list, or the ``DatabaseError`` of
    ///   opening the file or of a failing migration.
    public static func open(path: String, migrations: [Migration], configuration: Configuration = Configuration()) throws -> Store {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DatabaseError.sqlite.with(message: "cannot create directory \(directory.path) for \(path): \(error)")
        }
        return try Store(path: path, migrations: migrations, configuration: configuration, temporaryDirectory: nil)
    }

    /// A store on a new file in a new temporary directory, removed when the store is released.
    ///
    /// A real file, not `:memory:`, so that tests exercise WAL, the reader pool and durability
    /// exactly as a host does.
    ///
    /// ```swift
    /// let store = try Store.temporary(migrations: migrations)
    /// ```
    public static func temporary(migrations: [Migration], configuration: Configuration = Configuration()) throws -> Store {
        // mkdtemp picks an unused name and creates the directory in one step, with no race.
        var template = Array((FileManager.default.temporaryDirectory.path + "/sandbox-store.XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkdtemp($0) != nil } ?? false
        }
        guard created else {
            throw DatabaseError.sqlite.with(message: "cannot create a temporary directory: errno \(errno)")
        }
        let directory = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return try Store(
            path: directory + "/store.sqlite",
            migrations: migrations,
            configuration: configuration,
            temporaryDirectory: directory
        )
    }

    /// Runs `body` in a write transaction and returns once what it wrote is durable; if `body`
    /// throws, nothing it did is kept.
    ///
    /// One write runs at a time, in the order they came; readers are not blocked. Writes that queue
    /// up while another one runs share its commit (group commit): the store's writer thread runs the
    /// queued bodies back to back, each in its own savepoint of one transaction, and commits them
    /// together (see ``WriteQueue``; the body runs there while its caller waits). Its syncer
    /// thread then syncs the WAL while the next writes run, one sync covering every commit made
    /// before it, and every caller returns only after a sync that covers its commit. A body that
    /// throws is rolled back to its savepoint alone; a commit or sync that fails fails every write
    /// of it. Every ``Configuration/backgroundCheckpointCommits`` commits, a passive checkpoint
    /// runs on a thread of the system's pool, which no caller waits for (see `Checkpointer`).
    ///
    /// Readers may see a commit a moment before its sync ends (as with any WAL commit that is not
    /// yet synced); a writer's caller never hears "done" before it.
    ///
    /// ```swift
    /// try store.write { db in
    ///     try db.run("INSERT INTO payments(id, amount) VALUES (?, ?)", ["p_1", 1250])
    ///     try db.run("INSERT INTO outbox(payment) VALUES (?)", ["p_1"])   // same transaction
    /// }
    /// ```
    ///
    /// - Returns: what `body` returns, once committed.
    /// - Throws: what `body` threw (nothing of it is kept), or the ``DatabaseError`` of `BEGIN`/`COMMIT`.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try write(.synced, body)
    }

    /// When a write's caller hears that it is done.
    public enum Durability: Sendable {
        /// Once the WAL holding it is synced: it survives a crash of the machine. The default.
        case synced
        /// Once it is committed: readers see it, and a crash of the process keeps it (the WAL is
        /// written), but a crash of the machine before the next sync, which follows at once, may
        /// lose it. Only for what is safely done again when lost: the record that a delivery
        /// went through, which a redelivery the receiver recognises restores.
        case committed
    }

    /// Runs `body` in a write transaction like ``write(_:)``, answered when `durability` says.
    ///
    /// ```swift
    /// try store.write(.committed) { db in try db.run("UPDATE outbox SET state = 'delivered' WHERE seq = ?", [seq]) }
    /// ```
    public func write<T>(_ durability: Durability, _ body: (Connection) throws -> T) throws -> T {
        if let postgres {
            let (value, channels) = try postgres.write(body)
            if !channels.isEmpty { listeners.tell(channels) }
            return value
        }
        let result = withoutActuallyEscaping(body) { body -> Result<T, any Error> in
            // The caller waits right here until the job is done, so the body outlives it.
            var result: Result<T, any Error>?
            let done = DispatchSemaphore(value: 0)
            enqueue(body, waitsForSync: durability == .synced) { outcome in
                result = outcome
                done.signal()
            }
            done.wait()
            return result!
        }
        Self.startCheckpointIfDue(checkpointer, commits: writes.commitCount)
        return try result.get()
    }

    /// Replaces the whole database with the copy at `path` (``Connection/backup(to:)`` made it),
    /// page by page through SQLite's backup API, in one write transaction of its own on the writer:
    /// the writes queued before it commit first, those after it wait; a reader sees the old
    /// contents or the new, never a mix. Answered once the new contents are synced.
    ///
    /// ```swift
    /// try store.restore(from: "snapshots/before/eu.sqlite")
    /// ```
    ///
    /// - Throws: ``DatabaseError/schemaMismatch`` when the copy's schema or `user_version` is not
    ///   this database's (nothing changes), or SQLite's error.
    public func restore(from path: String) throws {
        if let postgres {
            // One write transaction: every replica's readers see the old rows or the copy's.
            let (_, channels) = try postgres.write { db in try db.restore(from: path) }
            if !channels.isEmpty { listeners.tell(channels) }
            return
        }
        let result = withoutActuallyEscaping({ (db: Connection) throws in try db.restore(from: path) }) { body -> Result<Void, any Error> in
            var result: Result<Void, any Error>?
            let done = DispatchSemaphore(value: 0)
            enqueue(body, exclusive: true) { outcome in
                result = outcome
                done.signal()
            }
            done.wait()
            return result!
        }
        Self.startCheckpointIfDue(checkpointer, commits: writes.commitCount)
        try result.get()
    }

    /// Starts the passive checkpoint when it is due, on a thread of the system's pool: the caller
    /// whose write made it due does not wait for it (copying the WAL and syncing the database file
    /// delayed that caller's answer, a customer's Pay among them, by a few to some 40 ms).
    private static func startCheckpointIfDue(_ checkpointer: Checkpointer?, commits: UInt64) {
        if let checkpointer, checkpointer.claim(commits: commits) {
            DispatchQueue.global(qos: .utility).async { checkpointer.runClaimed() }
        }
    }

    /// Runs `body` in a write transaction like ``write(_:)``, without waiting: `completion` gets
    /// what `body` returned once it is durable, or what `body` threw (nothing of it kept), or the
    /// ``DatabaseError`` of `BEGIN`/`COMMIT`/the sync.
    ///
    /// `completion` runs on the store's writer or syncer thread, after the sync: keep it short
    /// (encode an answer, wake a connection) and never write to this store from it.
    ///
    /// ```swift
    /// store.write({ db in try db.run("INSERT INTO payments(id) VALUES (?)", ["p_1"]) }) { result in
    ///     reply { result.map { _ in Response(status: 201) } }
    /// }
    /// ```
    public func write<T>(
        _ body: @escaping @Sendable (Connection) throws -> T,
        then completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        if postgres != nil {
            DispatchQueue.global().async { completion(Result { try self.write(body) }) }
            return
        }
        enqueue(body) { [writes = writes!, checkpointer] result in
            completion(result)
            Self.startCheckpointIfDue(checkpointer, commits: writes.commitCount)
        }
    }

    /// Queues `body` for the writer; `completion` gets the write's outcome once it is durable or
    /// failed: the body's own error first, then the error of its batch (BEGIN, COMMIT, the sync).
    private func enqueue<T>(
        _ body: @escaping (Connection) throws -> T, waitsForSync: Bool = true, exclusive: Bool = false,
        _ completion: @escaping (Result<T, any Error>) -> Void
    ) {
        let box = ResultBox<T>()
        writes.submit(WriteQueue.Job({ db in
            // An exclusive body runs with no transaction (a savepoint would open one).
            box.result = Result { exclusive ? try body(db) : try db.inSavepoint(body) }
            if case .success = box.result { return true }
            return false
        }, waitsForSync: waitsForSync, exclusive: exclusive, done: { [weak self] failure in
            let outcome: Result<T, any Error> =
                switch (box.result, failure) {
                case (.failure?, _), (.success?, nil): box.result!
                case (_, let failure?): .failure(failure)
                case (nil, nil): .failure(DatabaseError.sqlite.with(message: "the write was not run"))
                }
            // Weakly: a job the syncer still holds must not keep a closed store alive.
            if let self {
                switch outcome {
                case .success: if full.load(ordering: .relaxed) { full.store(false, ordering: .relaxed) }
                case .failure(let error as DatabaseError) where error.isStorageFull: full.store(true, ordering: .relaxed)
                case .failure: break
                }
            }
            completion(outcome)
        }))
    }

    /// A write's outcome: set by its body on the writer thread, read by the job's `done` after it
    /// (on the writer's or the syncer's thread).
    private final class ResultBox<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }

    /// Calls `listener` after every commit whose writes ``Connection/notify(_:)``'d `channel`, on
    /// the writer thread: it should only wake its worker (signal a semaphore), never write here.
    ///
    /// ```swift
    /// store.listen("webhooks") { wake.signal() }
    /// ```
    public func listen(_ channel: String, _ listener: @escaping @Sendable () -> Void) {
        listeners.add(channel, listener)
        postgresListener?.add(channel)
    }

    /// Writes queued right now, waiting to be run (they will share the next commit).
    public var queuedWriteCount: Int { writes?.queuedCount ?? 0 }

    /// Commits made by ``write(_:)`` since the store was opened (fewer than writes when they share).
    public var commitCount: UInt64 { postgres?.commits.load(ordering: .relaxed) ?? writes.commitCount }

    /// Writes run again because PostgreSQL could not serialize them with a concurrent one (0 on SQLite).
    public var retryCount: UInt64 { postgres?.retries.load(ordering: .relaxed) ?? 0 }

    /// Syncs of the WAL that ``write(_:)`` made since the store was opened (one can cover several commits).
    public var walSyncCount: UInt64 { commits?.syncCount ?? 0 }

    /// Passive checkpoints run beside the writes so far (see ``Configuration/backgroundCheckpointCommits``).
    public var backgroundCheckpointCount: UInt64 { checkpointer?.count ?? 0 }

    /// PostgreSQL connections this store opened so far, its listener's included (0 on SQLite).
    public var postgresConnectionsOpened: UInt64 { postgres?.opened.load(ordering: .relaxed) ?? 0 }

    /// PostgreSQL connections open and waiting for the next read or write (0 on SQLite).
    public var idlePostgresConnectionCount: Int { postgres?.idleCount ?? 0 }

    /// Closes the idle PostgreSQL connections beyond ``Configuration/maximumIdlePostgresConnections``
    /// that have waited `idleFor` or longer: what the store does by itself once they have waited
    /// ``Configuration/postgresIdleTimeout`` (nothing on SQLite).
    public func closeIdleConnections(idleFor: Duration) {
        postgres?.closeIdle(idleFor: idleFor)
    }

    /// Lets go of what the store holds open beyond its use: on PostgreSQL, the idle connections
    /// and the listener's (a stopped service must not keep server processes); on SQLite, the idle
    /// readers. The store stays usable: what it needs again is opened again.
    public func closeIdleConnections() {
        postgresListener?.stop()
        postgres?.closeIdle()
        idleReaders.withLock { $0.removeAll() }
    }

    /// Runs one query on its own, outside any explicit transaction: one round trip on PostgreSQL
    /// (a `read` is two: its `COMMIT` is one more), for a value read on every request.
    public func query(_ sql: String, _ values: [DatabaseValue] = []) throws -> [Row] {
        try readStatement { db in try db.query(sql, values) }
    }

    /// Runs `body`, which reads with one statement, on a connection outside any explicit
    /// transaction: one round trip on PostgreSQL, where ``read(_:)`` adds its `COMMIT` (its `BEGIN`
    /// goes with the first statement).
    /// A statement sees one snapshot; a body of several would see each its own (use `read`).
    ///
    /// ```swift
    /// let session = try store.readStatement { db in try db.sessions.withDevice(tokenHash: hash) }
    /// ```
    public func readStatement<T>(_ body: (Connection) throws -> T) throws -> T {
        if let postgres { return try postgres.withConnection(body) }
        return try read(body)
    }

    /// Runs `body` in a read transaction on a reader connection.
    ///
    /// Reads run concurrently with each other and with the writer. Everything `body` reads
    /// comes from one snapshot: the data committed when it first reads, and nothing a write
    /// still in progress has done. The connection is read-only, so writing here fails.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: what `body` threw, or a ``DatabaseError``.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        if let postgres { return try postgres.read(body) }
        let box = try checkOutReader()
        defer { checkIn(box) }
        return try box.connection.inTransaction(.deferred, body)
    }

    private func checkOutReader() throws -> ConnectionBox {
        if let box = idleReaders.withLock({ $0.popLast() }) {
            return box
        }
        // None idle: open another rather than wait, so a read never waits on other reads
        // (and a read inside a read cannot deadlock).
        return ConnectionBox(try Connection(path: path, access: .readOnly, busyTimeout: configuration.busyTimeout))
    }

    private func checkIn(_ box: ConnectionBox) {
        guard !box.connection.isInTransaction else { return }  // never reuse a connection in an unknown state
        let limit = configuration.maximumIdleReaders
        idleReaders.withLock { idle in
            if idle.count < limit { idle.append(box) }
        }
    }
}
