import Foundation

/// Makes commits durable on a thread of its own: syncs the WAL after commits, one sync for every
/// commit made before it started, and then completes the writes of those commits.
///
/// This is what `synchronous=FULL` does inside `COMMIT` (sync the WAL), done after the commit
/// while the writer runs the next writes (see ``WriteQueue``). SQLite itself still syncs the WAL
/// before a checkpoint and the database file after one (`synchronous=NORMAL`).
final class Commits: @unchecked Sendable {
    private let condition = NSCondition()
    /// The WAL file, opened for syncing only: fdatasync flushes the file whichever descriptor wrote it.
    private let wal: Int32
    // Under `condition`:
    private var waiting: [WriteQueue.Job] = []
    /// A commit was made since the last sync started (its jobs may already have been told).
    private var unsynced = false
    private var started = false
    private var sleeping = false
    private var stopping = false
    private var syncs: UInt64 = 0

    init(walPath: String) throws {
        wal = Self.openFile(walPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard wal >= 0 else {
            throw DatabaseError.sqlite.with(message: "cannot open \(walPath) to sync it: errno \(errno)")
        }
    }

    deinit { close(wal) }

    /// Flushes the WAL's data: `fdatasync` on Linux; `fsync` on Apple platforms, which declare no
    /// `fdatasync` (the sync SQLite itself does there unless told `PRAGMA fullfsync`).
    private static func syncData(_ descriptor: Int32) -> Bool {
        #if canImport(Glibc)
        fdatasync(descriptor) == 0
        #else
        fsync(descriptor) == 0
        #endif
    }

    private static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.open(path, flags, mode)
        #else
        Darwin.open(path, flags, mode)
        #endif
    }

    /// A COMMIT returned: the next sync covers it, and then `jobs` (those of its writes that
    /// wait for the sync) are finished.
    func committed(_ jobs: [WriteQueue.Job]) {
        condition.lock()
        waiting += jobs
        unsynced = true
        if !started {
            started = true
            let thread = Thread { [self] in
                Thread.current.name = "store-syncer"  // set on the thread itself, it is what top and perf show
                runSyncs()
            }
            thread.start()
        }
        let wakes = sleeping
        condition.unlock()
        // Signalled once unlocked: a thread woken while the lock is held wakes only to wait for it.
        if wakes { condition.signal() }
    }

    /// Syncs what is committed, then ends the syncer thread.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func runSyncs() {
        while true {
            condition.lock()
            while !unsynced && !stopping {
                sleeping = true
                condition.wait()
                sleeping = false
            }
            // Every commit made so far: whatever commits during this sync waits for the next one.
            let covered = waiting
            waiting = []
            let due = unsynced
            unsynced = false
            condition.unlock()
            if !due { return }
            let synced = Self.syncData(wal)
            let code = errno
            condition.lock()
            syncs += 1
            condition.unlock()
            let failure: (any Error)? =
                synced ? nil : DatabaseError.sqlite.with(message: "syncing the WAL failed: errno \(code)")
            for job in covered { job.finish(failure) }
        }
    }

    var syncCount: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return syncs
    }
}
