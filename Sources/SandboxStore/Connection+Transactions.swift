extension Connection {
    /// How a transaction takes its locks.
    enum TransactionKind: String {
        /// Takes the write lock at `BEGIN`, so a write never fails half-way on a lock
        /// another connection got first (the reason writers use it).
        case immediate = "IMMEDIATE"
        /// Takes no lock until the first read: the reader's snapshot starts there.
        case deferred = "DEFERRED"
    }

    /// Runs `body` between `BEGIN` and `COMMIT`, rolling back when it throws.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: the error `body` threw (after the rollback), or the ``DatabaseError`` of
    ///   `BEGIN` or `COMMIT`.
    func inTransaction<T>(_ kind: TransactionKind, _ body: (Connection) throws -> T) throws -> T {
        try execute("BEGIN \(kind.rawValue)")
        do {
            let value = try body(self)
            try execute("COMMIT")
            return value
        } catch {
            // COMMIT can fail and leave the transaction open; a statement error may have
            // already rolled it back. Either way the connection must leave with none open.
            if isInTransaction {
                try? execute("ROLLBACK")
            }
            throw error
        }
    }
}
