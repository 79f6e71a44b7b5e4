import Foundation

/// Makes commits durable: syncs the WAL after commits, one sync for every commit made
/// before it started, and lets writers wait for the sync that covers theirs.
///
/// This is what `synchronous=FULL` does inside `COMMIT` (sync the WAL), done after the commit
/// while the next writes run (see ``WriteQueue``). SQLite itself still syncs the WAL
/// before a checkpoint and the database file after one (`synchronous=NORMAL`).
final class Commits: @unchecked Sendable {
    private let condition = NSCondition()
    /// The WAL file, opened for syncing only: fdatasync flushes the file whichever descriptor wrote it.
    private let wal: Int32
    private var committed: UInt64 = 0
    private var durable: UInt64 = 0
    private var syncing = false
    private var failures: [UInt64: any Error] = [:]
    private var syncs: UInt64 = 0

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
                // A failure is read by writers woken just now; keep a generous window, drop the rest.
                if failures.count > 256 { failures = failures.filter { $0.key + 256 > target } }
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
