extension Store {
    /// Tuning for a ``Store``; the defaults suit a sandbox host.
    public struct Configuration: Sendable {
        /// How many idle reader connections the store keeps open for reuse. More concurrent
        /// reads than this still run (extra connections are opened), but are closed afterwards.
        public var maximumIdleReaders: Int

        /// How long a connection waits for a lock held by another connection (another
        /// process, or a WAL checkpoint) before failing with ``DatabaseError/busy``.
        public var busyTimeout: Duration

        public init(maximumIdleReaders: Int = 4, busyTimeout: Duration = .seconds(5)) {
            self.maximumIdleReaders = maximumIdleReaders
            self.busyTimeout = busyTimeout
        }
    }
}
