/// Brings a database's schema up to date, one ``Migration`` at a time.
///
/// The applied version is kept in SQLite's `PRAGMA user_version`, which lives in the file
/// header and changes inside the same transaction as the migration's own SQL: a crash leaves
/// either the old schema with the old number or the new schema with the new one.
///
/// ```swift
/// let migrator = try Migrator(migrations: migrations)
/// let applied = try migrator.migrate(connection)   // [] when already up to date
/// ```
///
/// ``Store/open(path:migrations:configuration:)`` runs it for you.
public struct Migrator: Sendable {
    /// The migrations, sorted by version.
    public let migrations: [Migration]

    /// Checks and sorts the migration list.
    ///
    /// - Throws: ``DatabaseError/invalidMigrations`` when a version is below 1 or used twice.
    public init(migrations: [Migration]) throws {
        let sorted = migrations.sorted { $0.version < $1.version }
        if let bad = sorted.first(where: { $0.version < 1 }) {
            throw DatabaseError.invalidMigrations.with(
                message: "migration '\(bad.name)' has version \(bad.version); versions start at 1"
            )
        }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.version == next.version {
            throw DatabaseError.invalidMigrations.with(
                message: "migrations '\(previous.name)' and '\(next.name)' share version \(next.version)"
            )
        }
        self.migrations = sorted
    }

    /// The highest version this code knows, 0 when there are no migrations.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The schema version recorded in the database (0 for a new file): SQLite's `user_version`,
    /// PostgreSQL's row in `sandbox_schema`.
    public static func version(of db: Connection) throws -> Int {
        switch db.engine {
        case .sqlite:
            return try db.query("PRAGMA user_version")[0][0]
        case .postgres:
            let exists = try !db.query("SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'sandbox_schema'").isEmpty
            guard exists else { return 0 }
            return try db.query("SELECT version FROM sandbox_schema")[0][0]
        }
    }

    /// Records `version` in the transaction of its migration.
    private static func setVersion(_ version: Int, of db: Connection) throws {
        switch db.engine {
        case .sqlite:
            // PRAGMA takes no bound parameters; the version is an Int, so splicing is safe.
            try db.execute("PRAGMA user_version = \(version)")
        case .postgres:
            try db.execute("CREATE TABLE IF NOT EXISTS sandbox_schema (version BIGINT NOT NULL)")
            try db.run("DELETE FROM sandbox_schema")
            try db.run("INSERT INTO sandbox_schema (version) VALUES (?)", [.integer(Int64(version))])
        }
    }

    /// Applies every migration above the database's version, each in its own transaction.
    ///
    /// Safe to call on every start: an up-to-date database is left alone. If two processes
    /// migrate the same file at once, the version is read again under the write lock, so each
    /// migration runs once.
    ///
    /// - Returns: the versions applied now, in order.
    /// - Throws: ``DatabaseError/schemaTooNew`` when the database's version is above
    ///   ``latestVersion`` (it was written by a newer build); the ``DatabaseError`` of a failing
    ///   migration, whose changes are rolled back while earlier ones stay.
    @discardableResult
    public func migrate(_ db: Connection) throws -> [Int] {
        try checkNotNewer(than: Self.version(of: db))
        var applied: [Int] = []
        for migration in migrations {
            let didApply = try db.inTransaction(.schema) { db in
                if db.engine == .postgres {
                    // Replicas starting together: one migrates, the others wait here and then
                    // find the version moved (a lock that ends with the transaction).
                    try db.run("SELECT pg_advisory_xact_lock(7361001)")
                }
                let current = try Self.version(of: db)
                try checkNotNewer(than: current)
                guard current < migration.version else { return false }
                do {
                    try db.execute(migration.sql)
                } catch let error as DatabaseError {
                    throw error.with(message: "migration \(migration.version) '\(migration.name)' failed: \(error.message)")
                }
                try Self.setVersion(migration.version, of: db)
                return true
            }
            if didApply { applied.append(migration.version) }
        }
        return applied
    }

    private func checkNotNewer(than version: Int) throws {
        guard version > latestVersion else { return }
        throw DatabaseError.schemaTooNew.with(
            message: "database schema version \(version) is newer than the newest migration this build knows "
                + "(\(latestVersion)); run a newer build or use a fresh data directory"
        )
    }
}
