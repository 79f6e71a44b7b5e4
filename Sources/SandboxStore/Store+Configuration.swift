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

        public init(maximumIdleReaders: Int = 32, busyTimeout: Duration = .seconds(5), maximumWritesPerCommit: Int = 64) {
            self.maximumIdleReaders = maximumIdleReaders
            self.busyTimeout = busyTimeout
            self.maximumWritesPerCommit = max(1, maximumWritesPerCommit)
        }
    }
}
