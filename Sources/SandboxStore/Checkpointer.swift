import Synchronization

/// Copies the WAL into the database file beside the writes, on a connection of its own.
///
/// The writer connection's automatic checkpoint runs inside the COMMIT that takes the WAL past
/// `checkpointPages`: it copies every page changed since the last one and syncs the WAL and the
/// database file while every other write waits, some 8 ms on the 2-core bench machine, twice a
/// second under load, which every sale in flight then waited for (a third of the p99 gap in
/// bench/sale.sh). Every `interval` commits, a passive checkpoint runs here instead, beside the
/// writes, on a thread of the system's pool that no write waits for: it copies what the readers
/// allow without taking the write lock, so the automatic checkpoint finds most pages already
/// copied and mainly restarts the WAL. One runs at a time; a writer that finds one running goes on.
final class Checkpointer: @unchecked Sendable {
    /// Opens the connection on the first run: a store that never gets that far (most in tests)
    /// holds no extra file descriptors.
    private let open: () throws -> Connection
    /// Used only by the one caller that set `running`.
    private var connection: Connection?
    private let interval: UInt64
    private let running = Atomic<Bool>(false)
    private let lastCommit = Atomic<UInt64>(0)
    private let runs = Atomic<UInt64>(0)

    init(interval: UInt64, open: @escaping () throws -> Connection) {
        self.open = open
        self.interval = max(1, interval)
    }

    /// Takes the next checkpoint when it is due and none runs: the caller must then call
    /// ``runClaimed()`` (on any thread).
    func claim(commits: UInt64) -> Bool {
        guard commits >= lastCommit.load(ordering: .relaxed) &+ interval else { return false }
        guard running.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return false }
        guard commits >= lastCommit.load(ordering: .relaxed) &+ interval else {
            running.store(false, ordering: .releasing)
            return false
        }
        lastCommit.store(commits, ordering: .relaxed)
        return true
    }

    /// Runs the checkpoint ``claim(commits:)`` took.
    func runClaimed() {
        defer { running.store(false, ordering: .releasing) }
        // PASSIVE never waits for a lock; a failure (a busy database) leaves the work to the next
        // run or to the automatic checkpoint, and is not the caller's failure.
        guard let connection = connection ?? (try? open()) else { return }
        self.connection = connection
        if (try? connection.query("PRAGMA wal_checkpoint(PASSIVE)")) != nil {
            runs.add(1, ordering: .relaxed)
        }
    }

    /// Checkpoints run so far.
    var count: UInt64 { runs.load(ordering: .relaxed) }
}
