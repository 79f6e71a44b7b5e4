import SandboxStore
import SandboxTestSupport
import Testing

@Suite("Migrations")
struct MigrationTests {
    private let first = Migration(version: 1, name: "payments", sql: """
        CREATE TABLE payments(id INTEGER PRIMARY KEY, amount INTEGER NOT NULL);
        """)
    private let second = Migration(version: 2, name: "payment notes", sql: """
        ALTER TABLE payments ADD COLUMN note TEXT;
        CREATE INDEX payments_amount ON payments(amount);
        """)
    private let third = Migration(version: 3, name: "refunds", sql: """
        CREATE TABLE refunds(id INTEGER PRIMARY KEY, payment INTEGER NOT NULL REFERENCES payments(id));
        """)

    private func version(_ store: Store) throws -> Int {
        try store.read { try Migrator.version(of: $0) }
    }

    @Test("pending migrations apply once, in order, and a new file ends at the latest version")
    func appliesOnce() throws {
        // Listed out of order on purpose: the migrator sorts by version.
        let store = try Store.temporary(migrations: [second, first])
        #expect(try version(store) == 2)
        try store.write { db in
            try db.run("INSERT INTO payments(amount, note) VALUES (?, ?)", [1250, "tip"])
        }
        // Running the migrator again on a current database applies nothing (and keeps the row).
        let other = try Connection(path: store.path)
        let applied = try Migrator(migrations: [first, second]).migrate(other)
        #expect(applied.isEmpty)
        #expect(try other.count("payments") == 1)
    }

    @Test("reopening keeps data and applies only the new migrations")
    func survivesReopen() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("nested/deeper/host.sqlite").path  // parent directories are created
        do {
            let store = try Store.open(path: path, migrations: [first, second])
            try store.write { try $0.run("INSERT INTO payments(amount) VALUES (?)", [700]) }
        }
        do {
            // Re-running migration 1 or 2 would fail ("table payments already exists").
            let store = try Store.open(path: path, migrations: [first, second])
            #expect(try version(store) == 2)
            #expect(try store.read { try $0.count("payments") } == 1)
        }
        let store = try Store.open(path: path, migrations: [first, second, third])
        #expect(try version(store) == 3)
        try store.write { try $0.run("INSERT INTO refunds(payment) VALUES (1)") }
        #expect(try store.read { try $0.count("payments") } == 1)
    }

    @Test("a database from a newer build is refused with a clear error and left untouched")
    func refusesNewerDatabase() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("host.sqlite").path
        _ = try Store.open(path: path, migrations: [first, second, third])

        let error = #expect(throws: DatabaseError.self) {
            try Store.open(path: path, migrations: [first, second])
        }
        #expect(error == .schemaTooNew)
        #expect(error?.message.contains("version 3") == true)
        #expect(error?.message.contains("(2)") == true)

        let store = try Store.open(path: path, migrations: [first, second, third])
        #expect(try version(store) == 3)
    }

    @Test("a failing migration rolls back alone; the ones before it stay applied")
    func failingMigrationRollsBackAlone() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("host.sqlite").path
        let broken = Migration(version: 2, name: "broken", sql: """
            CREATE TABLE half_done(id INTEGER);
            INSERT INTO no_such_table VALUES (1);
            """)

        let error = #expect(throws: DatabaseError.self) {
            try Store.open(path: path, migrations: [first, broken])
        }
        #expect(error?.message.contains("migration 2 'broken'") == true)

        let store = try Store.open(path: path, migrations: [first])
        #expect(try version(store) == 1)
        let halfDone = try store.read { db in
            try db.query("SELECT name FROM sqlite_master WHERE name = 'half_done'")
        }
        #expect(halfDone.isEmpty)
    }

    @Test("a migration list with a repeated or non-positive version is refused")
    func refusesInvalidList() throws {
        #expect(throws: DatabaseError.invalidMigrations) {
            try Migrator(migrations: [first, Migration(version: 1, name: "again", sql: "")])
        }
        #expect(throws: DatabaseError.invalidMigrations) {
            try Migrator(migrations: [Migration(version: 0, name: "zero", sql: "")])
        }
    }
}
