extension Connection {
    /// How a transaction takes its locks.
    enum TransactionKind: String {
        /// Takes the write lock at `BEGIN`, so a write never fails half-way on a lock
        /// another connection got first (the reason writers use it).
        case immediate = "IMMEDIATE"
        /// Takes no lock until the first read: the reader's snapshot starts there.
        case deferred = "DEFERRED"
        /// A schema change: SQLite's IMMEDIATE; PostgreSQL's READ COMMITTED, where each statement
        /// sees what committed before it (after an advisory lock, another replica's migration).
        case schema = "SCHEMA"
    }

    /// Runs `body` between `BEGIN` and `COMMIT`, rolling back when it throws.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: the error `body` threw (after the rollback), or the ``DatabaseError`` of
    ///   `BEGIN` or `COMMIT`.
    func inTransaction<T>(_ kind: TransactionKind, _ body: (Connection) throws -> T) throws -> T {
        // Through the statement cache: transaction control is parsed once per connection. On
        // PostgreSQL the BEGIN goes with the first statement (one round trip for both).
        switch (engine, kind) {
        case (.sqlite, .immediate), (.sqlite, .schema): try run("BEGIN IMMEDIATE")
        case (.postgres, .schema): try postgres?.begin("BEGIN ISOLATION LEVEL READ COMMITTED")
        case (.sqlite, .deferred): try run("BEGIN DEFERRED")
        // Every write sees the database as if it ran alone, whichever replica runs it; one that
        // cannot be is refused (DatabaseError.isRetryable) and the store runs it again.
        case (.postgres, .immediate): try postgres?.begin("BEGIN ISOLATION LEVEL SERIALIZABLE")
        // A read sees one snapshot, as a SQLite read transaction does.
        case (.postgres, .deferred): try postgres?.begin("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        }
        do {
            let value = try body(self)
            try end("COMMIT")
            return value
        } catch {
            // COMMIT can fail and leave the transaction open; a statement error may have
            // already rolled it back. Either way the connection must leave with none open.
            if isInTransaction {
                try? end("ROLLBACK")
            }
            throw error
        }
    }

    /// `COMMIT` or `ROLLBACK`: on PostgreSQL, nothing is sent for a transaction that ran no statement.
    private func end(_ sql: String) throws {
        if let postgres { try postgres.end(sql) } else { try run(sql) }
    }

    /// Runs `body` inside a savepoint of the open transaction: when it throws, what it did is
    /// undone and the rest of the transaction (other writers of the same commit) stays.
    func inSavepoint<T>(_ body: (Connection) throws -> T) throws -> T {
        try run("SAVEPOINT store_write")
        let notified = notifications
        do {
            let value = try body(self)
            try run("RELEASE store_write")
            return value
        } catch {
            // A failing statement may have ended the whole transaction (an I/O error, a full
            // disk): then there is no savepoint left to roll back to, and the caller sees that.
            if isInTransaction {
                try? run("ROLLBACK TO store_write")
                try? run("RELEASE store_write")
            }
            notifications = notified
            throw error
        }
    }
}
