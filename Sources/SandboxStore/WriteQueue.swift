import Foundation

/// Runs a store's writes on its one writer connection, on a thread of its own: writes queue their
/// bodies, and the writer runs every queued body back to back, each in its own savepoint of one
/// transaction, commits them together and hands the batch to ``Commits``, which syncs the WAL and
/// completes the writes while the writer already runs the next batch.
///
/// A caller is never the one that runs the queue: it either waits (``perform(_:)``) or is told
/// later (``submit(_:)``), so an HTTP poller thread can hand a write over and go on serving other
/// connections. Under load the writer never sleeps; a write costs its caller at most one wake-up.
///
/// Bodies run on the writer thread, while their caller waits or serves others; they must not
/// depend on thread-local state and must not write to the same store (they would wait for
/// themselves).
final class WriteQueue: @unchecked Sendable {
    /// One write while it waits to be run and made durable.
    final class Job: @unchecked Sendable {
        /// Runs the caller's body in its savepoint, keeps the outcome with the caller and tells
        /// whether the body succeeded. Dropped as soon as it ran.
        fileprivate var body: ((Connection) -> Bool)?
        /// Told once: with nil when the body ran and its commit is durable, or only committed when it
        /// does not wait for the sync (or the body failed and nothing needed keeping), with the
        /// error when BEGIN, COMMIT or the sync it waits for failed.
        /// Called on the writer's or the syncer's thread: keep it short, and never write from it.
        private let done: ((any Error)?) -> Void
        /// Whether `done` waits for the sync (else it is told once the commit returned).
        let waitsForSync: Bool
        /// Runs alone, outside any transaction (a whole-database restore through SQLite's backup
        /// API, which cannot run inside one): the writes before it commit first, those after wait.
        let exclusive: Bool

        init(
            _ body: @escaping (Connection) -> Bool, waitsForSync: Bool = true, exclusive: Bool = false,
            done: @escaping ((any Error)?) -> Void
        ) {
            self.body = body
            self.waitsForSync = waitsForSync
            self.exclusive = exclusive
            self.done = done
        }

        fileprivate func run(on connection: Connection) -> Bool {
            let body = self.body
            self.body = nil
            return body?(connection) ?? false
        }

        func finish(_ failure: (any Error)?) { done(failure) }
    }

    /// The writer connection, used by the writer thread only; closed (dropped) when it ends.
    private var connection: Connection?
    private let commits: Commits
    private let maximumWritesPerCommit: Int
    private let condition = NSCondition()
    // Under `condition`:
    private var queue: [Job] = []
    private var commitNumber: UInt64 = 0
    private var thread: Thread?
    private var sleeping = false
    private var stopping = false
    private var finished = false

    /// Told the channels a batch notified, once it committed (on the writer thread: keep it short).
    private let notify: @Sendable (Set<String>) -> Void

    init(
        connection: Connection, commits: Commits, maximumWritesPerCommit: Int,
        notify: @escaping @Sendable (Set<String>) -> Void = { _ in }
    ) {
        self.connection = connection
        self.commits = commits
        self.maximumWritesPerCommit = max(1, maximumWritesPerCommit)
        self.notify = notify
    }

    /// Queues `job`; its `done` is called once it ran and its commit is durable, or failed.
    func submit(_ job: Job) {
        condition.lock()
        queue.append(job)
        if thread == nil {
            let thread = Thread { [self] in
                Thread.current.name = "store-writer"  // set on the thread itself, it is what top and perf show
                runWrites()
            }
            self.thread = thread
            thread.start()
        }
        let wakes = sleeping
        condition.unlock()
        // Signalled once unlocked: a thread woken while the lock is held wakes only to wait for it.
        if wakes { condition.signal() }
    }

    /// Finishes the queued writes, ends the writer thread (and with it the syncer's) and closes
    /// the writer connection; returns once it is closed, so that the files can be moved or
    /// removed right after. (Called on the writer thread itself, from a body that held the
    /// store's last reference, it cannot wait for itself: the connection closes just after.)
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        guard let thread else {
            connection = nil
            return
        }
        condition.broadcast()
        if thread === Thread.current { return }
        while !finished { condition.wait() }
    }

    /// Writes queued now, waiting for the writer to run them.
    var queuedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count
    }

    /// Commits that kept at least one write, made so far.
    var commitCount: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return commitNumber
    }

    private func runWrites() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping {
                sleeping = true
                condition.wait()
                sleeping = false
            }
            if queue.isEmpty {
                connection = nil
                finished = true
                condition.broadcast()
                condition.unlock()
                commits.stop()
                return
            }
            condition.unlock()
            runBatch()
        }
    }

    /// Runs the queue in one transaction for as long as writes keep coming (up to the limit),
    /// commits, and hands the batch to the syncer (or fails it).
    private func runBatch() {
        guard let connection else { return }
        if let job = takeExclusive() {
            runAlone(job, on: connection)
            return
        }
        var batch: [Job] = []
        var failure: (any Error)?
        var isOpen = false
        var kept = 0  // bodies that succeeded: a batch of failed ones commits nothing and needs no sync
        fill: while batch.count < maximumWritesPerCommit {
            let taken = take(maximumWritesPerCommit - batch.count)
            if taken.isEmpty { break }
            if !isOpen {
                do {
                    try connection.run("BEGIN IMMEDIATE")
                    isOpen = true
                } catch {
                    failure = error
                    batch += taken
                    break
                }
            }
            for (index, job) in taken.enumerated() {
                if job.run(on: connection) { kept += 1 }
                batch.append(job)
                if !connection.isInTransaction {
                    // SQLite ended the whole transaction (I/O error, disk full): the writes of the batch
                    // are lost with this one; the ones not run yet go back to the front of the queue.
                    failure = connection.lastError.map { $0.with(message: "the transaction was rolled back by SQLite: \($0.message)") }
                        ?? DatabaseError.sqlite.with(message: "the transaction was rolled back by SQLite")
                    isOpen = false
                    requeue(taken[(index + 1)...])
                    break fill
                }
            }
        }
        if isOpen {
            do {
                try connection.run("COMMIT")
            } catch {
                if connection.isInTransaction { try? connection.run("ROLLBACK") }
                failure = error
            }
        }
        let notified = connection.notifications
        connection.notifications = []
        guard failure == nil && kept > 0 else {
            for job in batch { job.finish(failure) }
            return
        }
        if !notified.isEmpty { notify(notified) }
        condition.lock()
        commitNumber += 1
        condition.unlock()
        // Writes that need not wait for the sync are told now; the next sync covers them all the same.
        let syncing = batch.filter(\.waitsForSync)
        for job in batch where !job.waitsForSync { job.finish(nil) }
        commits.committed(syncing)
    }

    /// Runs an exclusive job with no transaction open, then has its work synced as a batch's.
    private func runAlone(_ job: Job, on connection: Connection) {
        let succeeded = job.run(on: connection)
        var failure: (any Error)?
        if connection.isInTransaction {
            try? connection.run("ROLLBACK")
            failure = DatabaseError.misuse.with(message: "an exclusive write left a transaction open: it was rolled back")
        }
        connection.notifications = []
        guard succeeded, failure == nil else {
            job.finish(failure)
            return
        }
        condition.lock()
        commitNumber += 1
        condition.unlock()
        if job.waitsForSync { commits.committed([job]) } else { job.finish(nil) }
    }

    /// The first queued job when it is exclusive.
    private func takeExclusive() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        guard let first = queue.first, first.exclusive else { return nil }
        queue.removeFirst()
        return first
    }

    /// Up to `limit` queued jobs, stopping before an exclusive one (it runs after them, alone).
    private func take(_ limit: Int) -> ArraySlice<Job> {
        condition.lock()
        defer { condition.unlock() }
        let taken = queue.prefix(limit).prefix { !$0.exclusive }
        queue.removeFirst(taken.count)
        return taken
    }

    private func requeue(_ jobs: ArraySlice<Job>) {
        guard !jobs.isEmpty else { return }
        condition.lock()
        queue.insert(contentsOf: jobs, at: 0)
        condition.unlock()
    }
}
