import Foundation

/// Runs a store's writes on its one writer connection by combining them: a write queues its body
/// and sleeps, and whichever writer leads at the moment runs every queued body back to back, each in
/// its own savepoint of one transaction, and commits them together.
///
/// The bodies run one after another on the leader's thread, with no hand-over of a lock between
/// them: on a busy machine each hand-over is a wake-up that waits for a free core while every other
/// writer waits too. After the commit the leader hands the lead to the first writer that queued
/// meanwhile, syncs the WAL (see ``Commits``) while that one runs the next bodies, and then wakes
/// the writers of its batch. So a write costs its caller one sleep and one wake-up.
///
/// A body may run on another thread than its caller's, while the caller waits; bodies must not
/// depend on thread-local state, and must not call `Store.write` (they would wait for themselves).
final class WriteQueue: @unchecked Sendable {
    /// One call of `Store.write` while it waits for its body to be run and made durable.
    final class Job: @unchecked Sendable {
        /// Runs the caller's body in its savepoint, keeps the outcome in the caller's frame and
        /// tells whether the body succeeded. Dropped as soon as it ran: it wraps a non-escaping
        /// closure of a caller that is waiting.
        fileprivate var body: ((Connection) -> Bool)?
        /// Why the write is not kept although its body succeeded (BEGIN, COMMIT or the sync failed),
        /// read by the caller once woken.
        fileprivate(set) var failure: (any Error)?
        fileprivate var role = Role.queued
        fileprivate let wake = DispatchSemaphore(value: 0)

        init(_ body: @escaping (Connection) -> Bool) { self.body = body }

        fileprivate func run(on connection: Connection) -> Bool {
            let body = self.body
            self.body = nil
            return body?(connection) ?? false
        }
    }

    fileprivate enum Role {
        case queued
        /// Woken to run the queue (its own job first).
        case leader
        /// Run, committed and synced (or failed): the caller may return.
        case done
    }

    private let connection: Connection
    private let commits: Commits
    private let maximumWritesPerCommit: Int
    private let lock = NSLock()
    // Under `lock`:
    private var queue: [Job] = []
    private var leading = false
    private var commitNumber: UInt64 = 0

    init(connection: Connection, commits: Commits, maximumWritesPerCommit: Int) {
        self.connection = connection
        self.commits = commits
        self.maximumWritesPerCommit = max(1, maximumWritesPerCommit)
    }

    /// Queues `job` and returns once it ran and its commit is durable, or failed.
    func perform(_ job: Job) {
        lock.lock()
        queue.append(job)
        if leading {
            lock.unlock()
            job.wake.wait()  // woken as leader, or done
        } else {
            leading = true
            job.role = .leader
            lock.unlock()
        }
        if job.role == .leader { lead(job) }
    }

    /// Writes queued now, waiting for a leader to run them.
    var queuedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return queue.count
    }

    /// Commits that kept at least one write, made so far.
    var commitCount: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return commitNumber
    }

    /// Runs the queue (`own` first) in one transaction for as long as writes keep coming (up to
    /// the limit), commits, hands the lead on, syncs, and wakes the batch.
    private func lead(_ own: Job) {
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
                    failure = DatabaseError.sqlite.with(message: "the transaction was rolled back by SQLite")
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
        // Hand the lead on before syncing: the next batch runs while the disk syncs this one.
        let synced = failure == nil && kept > 0
        lock.lock()
        if synced { commitNumber += 1 }
        let commit = commitNumber
        let next = queue.first
        if let next { next.role = .leader } else { leading = false }
        lock.unlock()
        next?.wake.signal()
        if synced {
            commits.committed(commit)
            failure = commits.waitUntilDurable(commit)
        }
        for job in batch {
            job.failure = failure
            job.role = .done
            if job !== own { job.wake.signal() }
        }
    }

    private func take(_ limit: Int) -> ArraySlice<Job> {
        lock.lock()
        defer { lock.unlock() }
        let taken = queue.prefix(limit)
        queue.removeFirst(taken.count)
        return taken
    }

    private func requeue(_ jobs: ArraySlice<Job>) {
        guard !jobs.isEmpty else { return }
        lock.lock()
        queue.insert(contentsOf: jobs, at: 0)
        lock.unlock()
    }
}
