import Foundation
import Synchronization

/// A host's database: one SQLite file with one writer and a pool of readers.
///
/// The file runs in WAL mode, and a write returns only once the WAL holding it is synced to
/// disk, so a committed write survives a crash of the process or the machine; readers keep
/// reading while a write is in progress. Writes are serialized by a lock in the process and run
/// in `BEGIN IMMEDIATE … COMMIT`, writes that queue up meanwhile sharing one commit, and the
/// sync happens after the lock is released (see ``write(_:)``); each read runs in its own
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
/// transactions short. Do not call `write` from inside `write`: the lock is not reentrant.
public final class Store: Sendable {
    /// Gives a reader connection to whoever holds it, one holder at a time.
    ///
    /// `@unchecked` because `Connection` is not `Sendable`. That is sound here: a reader's box is
    /// used only by the one caller that took it out of `idleReaders` until it puts it back (and the
    /// writer's connection is only touched inside `writer.withLock`).
    private final class ConnectionBox: @unchecked Sendable {
        let connection: Connection
        init(_ connection: Connection) { self.connection = connection }
    }

    /// The writer state behind a plain pthread mutex (`NSLock`): writers queue on it for as long as
    /// a commit's sync takes, and on a machine with few cores spinning for it (as `Mutex` does
    /// first) burns the time the writer needs.
    private final class WriterLock: @unchecked Sendable {
        private let lock = NSLock()
        private var writer: Writer
        init(_ writer: Writer) { self.writer = writer }
        func withLock<R>(_ body: (inout Writer) throws -> R) rethrows -> R {
            lock.lock()
            defer { lock.unlock() }
            return try body(&writer)
        }
    }

    /// The writer connection and the transaction that queued writes share.
    private struct Writer {
        let connection: Connection
        /// A transaction is open, with writes in it that wait for its commit.
        var isOpen = false
        /// The number of the open (or last) shared commit.
        var commit: UInt64 = 0
        /// Writes in the open transaction.
        var writes = 0
    }

    /// Makes commits durable: syncs the WAL after commits, one sync for every commit made
    /// before it started, and lets writers wait for the sync that covers theirs.
    ///
    /// This is what `synchronous=FULL` does inside `COMMIT` (sync the WAL), done outside the
    /// writer lock so the next writes run while the disk syncs. SQLite itself still syncs the WAL
    /// before a checkpoint and the database file after one (`synchronous=NORMAL`).
    private final class Commits: @unchecked Sendable {
        private let condition = NSCondition()
        /// The WAL file, opened for syncing only: fdatasync flushes the file whichever descriptor wrote it.
        private let wal: Int32
        private var committed: UInt64 = 0
        private var durable: UInt64 = 0
        private var syncing = false
        private var failures: [UInt64: any Error] = [:]
        private(set) var syncs: UInt64 = 0

        init(walPath: String) throws {
            wal = Self.openFile(walPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard wal >= 0 else {
                throw DatabaseError.sqlite.with(message: "cannot open \(walPath) to sync it: errno \(errno)")
            }
        }

        deinit { close(wal) }

        private static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
            #if canImport(Glibc)
            Glibc.open(path, flags, mode)
            #else
            Darwin.open(path, flags, mode)
            #endif
        }

        /// Commit `commit` failed (nothing of it is in the file): its writers get `failure`.
        func fail(_ commit: UInt64, _ failure: any Error) {
            condition.lock()
            defer { condition.unlock() }
            failures[commit] = failure
            // A failure is read by writers woken just now; keep a generous window, drop the rest.
            if failures.count > 256 { failures = failures.filter { $0.key + 256 > commit } }
            condition.broadcast()
        }

        /// COMMIT of `commit` returned: from now on a sync covers it.
        func committed(_ commit: UInt64) {
            condition.lock()
            committed = max(committed, commit)
            // While a sync runs nobody can start the next one, and its end wakes everyone anyway:
            // waking the waiters now would only send them back to sleep.
            if !syncing { condition.broadcast() }
            condition.unlock()
        }

        /// Returns once commit `commit` is on disk (syncing the WAL when no sync that covers it is
        /// under way), or with its failure.
        func waitUntilDurable(_ commit: UInt64) -> (any Error)? {
            condition.lock()
            defer { condition.unlock() }
            while durable < commit && failures[commit] == nil {
                guard !syncing && committed >= commit else {
                    condition.wait()
                    continue
                }
                // Sync for every commit made so far; whoever waits meanwhile waits for this one or the next.
                syncing = true
                let target = committed
                condition.unlock()
                let synced = fdatasync(wal) == 0
                let code = errno
                condition.lock()
                syncing = false
                syncs += 1
                if !synced {
                    let failure = DatabaseError.sqlite.with(message: "fdatasync of the WAL failed: errno \(code)")
                    for failed in (durable + 1)...target where failures[failed] == nil { failures[failed] = failure }
                }
                durable = max(durable, target)
                condition.broadcast()
            }
            return failures[commit]
        }

        var syncCount: UInt64 {
            condition.lock()
            defer { condition.unlock() }
            return syncs
        }
    }

    /// The path of the database file.
    public let path: String

    private let configuration: Configuration
    private let writer: WriterLock
    /// Writers waiting for the writer lock: while there are some, a write leaves the commit to them.
    private let queuedWriters = Atomic<Int>(0)
    private let commits: Commits
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
        // NORMAL: COMMIT writes the WAL without syncing it; `write` syncs it right after (see
        // Commits), which is what FULL would do inside COMMIT, holding the writer lock meanwhile.
        // which NORMAL (the usual WAL choice) does not promise.
        try connection.execute("PRAGMA synchronous = NORMAL")
        try migrator.migrate(connection)
        self.commits = try Commits(walPath: path + "-wal")
        self.path = path
        self.configuration = configuration
        self.writer = WriterLock(Writer(connection: connection))
        self.temporaryDirectory = temporaryDirectory
    }

    deinit {
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
    /// One write runs at a time; other callers wait for the lock. Readers are not blocked.
    /// Writes that queue up while another one runs share its commit (group commit): each runs
    /// in its own savepoint of one transaction and the last one in the queue commits. The WAL is
    /// then synced after the lock is released, one sync covering every commit made before it, and
    /// every caller returns only after a sync that covers its commit. A body that throws is rolled
    /// back to its savepoint alone; a commit or sync that fails fails every write of it.
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
        // The result goes through a local rather than out of withLock, whose `sending`
        // result would demand a disconnected value that a generic T cannot promise.
        var result: Result<T, any Error>?
        var commitToAwait: UInt64?
        queuedWriters.add(1, ordering: .sequentiallyConsistent)
        writer.withLock { writer in
            queuedWriters.subtract(1, ordering: .sequentiallyConsistent)
            let db = writer.connection
            if !writer.isOpen {
                do { try db.execute("BEGIN IMMEDIATE") } catch {
                    result = .failure(error)
                    return
                }
                writer.isOpen = true
                writer.commit += 1
                writer.writes = 0
            }
            let commit = writer.commit
            result = Result { try db.inSavepoint(body) }
            writer.writes += 1
            if !db.isInTransaction {
                // SQLite ended the whole transaction (I/O error, disk full): the writes queued
                // in it are lost with this one.
                writer.isOpen = false
                commits.fail(commit, DatabaseError.sqlite.with(message: "the transaction was rolled back by SQLite"))
                return
            }
            if queuedWriters.load(ordering: .sequentiallyConsistent) == 0 || writer.writes >= configuration.maximumWritesPerCommit {
                // Nobody is waiting to join: commit this write and the ones before it.
                writer.isOpen = false
                do {
                    try db.execute("COMMIT")
                    commits.committed(commit)
                    if case .success = result { commitToAwait = commit }
                } catch {
                    if db.isInTransaction { try? db.execute("ROLLBACK") }
                    commits.fail(commit, error)
                    if case .success = result { result = .failure(error) }
                }
            } else if case .success = result {
                // A queued writer joins this transaction; whoever comes last commits.
                commitToAwait = commit
            }
        }
        // The writer lock is free again: the next writes run while this one's commit is synced.
        if let commitToAwait, let failure = commits.waitUntilDurable(commitToAwait) {
            throw failure
        }
        return try result!.get()
    }

    /// Writes waiting for the writer lock right now (they will share the next commit).
    public var queuedWriteCount: Int { queuedWriters.load(ordering: .relaxed) }

    /// Commits made by ``write(_:)`` since the store was opened (fewer than writes when they share).
    public var commitCount: UInt64 { writer.withLock { $0.commit } }

    /// Syncs of the WAL that ``write(_:)`` made since the store was opened (one can cover several commits).
    public var walSyncCount: UInt64 { commits.syncCount }

    /// Runs `body` in a read transaction on a reader connection.
    ///
    /// Reads run concurrently with each other and with the writer. Everything `body` reads
    /// comes from one snapshot: the data committed when it first reads, and nothing a write
    /// still in progress has done. The connection is read-only, so writing here fails.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: what `body` threw, or a ``DatabaseError``.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
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
