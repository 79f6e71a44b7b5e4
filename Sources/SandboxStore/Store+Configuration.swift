extension Store {
    /// Tuning for a ``Store``; the defaults suit a sandbox host.
    public struct Configuration: Sendable {
        /// How many idle reader connections the store keeps open for reuse. More concurrent
        /// reads than this still run (extra connections are opened), but are closed afterwards.
        public var maximumIdleReaders: Int

        /// How long a connection waits for a lock held by another connection (another
        /// process, or a WAL checkpoint) before failing with ``DatabaseError/busy``.
        public var busyTimeout: Duration

        /// At most this many writes share one commit (see ``Store/write(_:)``); 1 commits
        /// every write on its own.
        public var maximumWritesPerCommit: Int

        /// The WAL is checkpointed into the database file (by the commit that takes it past this
        /// many pages) and then starts again from its beginning. A checkpoint copies each page once,
        /// however often it changed in the WAL, and syncs twice; with hot pages (the last leaf of
        /// each index) a larger WAL means far fewer copies and syncs per write. 10,000 pages of
        /// 4 KiB is a WAL of about 40 MB; past 64 MB it is truncated after a checkpoint.
        public var checkpointPages: Int

        /// Every this many commits, the WAL is copied into the database file on a connection of its
        /// own (a passive checkpoint, beside the writes, on a thread of the system's pool that no
        /// write waits for), so the checkpoint at ``checkpointPages`` finds little left to copy
        /// while every write waits for it. 0: only that one.
        public var backgroundCheckpointCommits: Int

        /// PostgreSQL: at most this many connections from this process at once (reads and writes).
        public var maximumPostgresConnections: Int

        /// PostgreSQL: how many connections stay open however long they are idle, for the next
        /// reads and writes (each one a process on the server, so fewer than SQLite's readers).
        public var maximumIdlePostgresConnections: Int = 2

        /// PostgreSQL: the connections beyond ``maximumIdlePostgresConnections`` close once idle this
        /// long. Until then a burst's connections serve the next burst: opening one starts a process
        /// on the server, which costs more than a sale.
        public var postgresIdleTimeout: Duration = .seconds(30)

        /// PostgreSQL: where `LISTEN` is not carried (a pooler in transaction mode), every
        /// listener is told this often, so that workers still find work another replica made.
        public var notificationFallback: Duration

        public init(
            maximumIdleReaders: Int = 32, busyTimeout: Duration = .seconds(5), maximumWritesPerCommit: Int = 64,
            checkpointPages: Int = 10_000, backgroundCheckpointCommits: Int = 64, maximumPostgresConnections: Int = 16,
            notificationFallback: Duration = .seconds(2)
        ) {
            self.maximumPostgresConnections = max(1, maximumPostgresConnections)
            self.notificationFallback = notificationFallback
            self.maximumIdleReaders = maximumIdleReaders
            self.busyTimeout = busyTimeout
            self.maximumWritesPerCommit = max(1, maximumWritesPerCommit)
            self.checkpointPages = max(1, checkpointPages)
            self.backgroundCheckpointCommits = max(0, backgroundCheckpointCommits)
        }
    }
}
