import Foundation
import SandboxStore
import SandboxTestSupport
import Synchronization
import Testing

/// The store's contract, on both engines: what the repositories rely on behaves the same on the
/// embedded SQLite file and on a PostgreSQL database (a throw-away server of the tests').
@Suite("Store on SQLite and on PostgreSQL")
struct EngineTests {
    /// Portable DDL: both engines read these types alike.
    static let schema = Migration(version: 1, name: "engine", sql: """
        CREATE TABLE kinds(id BIGINT PRIMARY KEY, n BIGINT, x DOUBLE PRECISION, t TEXT, b BYTEA);
        CREATE TABLE items(id BIGINT PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE counters(name TEXT PRIMARY KEY, value BIGINT NOT NULL);
        INSERT INTO counters(name, value) VALUES ('hits', 0);
        """)

    static func open(_ engine: Connection.Engine, _ migrations: [Migration] = [schema]) throws -> Store {
        switch engine {
        case .sqlite: try Store.temporary(migrations: migrations)
        case .postgres: try Store.open(postgres: try PostgresServer.shared().newDatabase(), migrations: migrations)
        }
    }

    @Test("every kind of value comes back as it went in, NULL as NULL", arguments: [Connection.Engine.sqlite, .postgres])
    func valuesRoundTrip(engine: Connection.Engine) throws {
        let store = try Self.open(engine)
        let bytes = (0...255).map(UInt8.init)
        try store.write { db in
            try db.run("INSERT INTO kinds(id, n, x, t, b) VALUES (?, ?, ?, ?, ?)", [1, .integer(Int64.min), 12.5, "zł 😀 'quoted'", .blob(bytes)])
            try db.run("INSERT INTO kinds(id, n, x, t, b) VALUES (?, ?, ?, ?, ?)", [2, nil, nil, nil, .blob([])])
        }
        let rows = try store.read { db in try db.query("SELECT id, n, x, t, b FROM kinds ORDER BY id") }
        #expect(rows.map(\.values) == [
            [.integer(1), .integer(Int64.min), .real(12.5), .text("zł 😀 'quoted'"), .blob(bytes)],
            [.integer(2), .null, .null, .null, .blob([])],
        ])
        let total: Int64 = try store.read { db in try db.query("SELECT SUM(id) AS total FROM kinds")[0]["total"] }
        #expect(total == 3)
    }

    @Test("a duplicate key is a constraint violation; the failed write keeps nothing", arguments: [Connection.Engine.sqlite, .postgres])
    func constraintViolation(engine: Connection.Engine) throws {
        let store = try Self.open(engine)
        try store.write { db in try db.run("INSERT INTO items(id, name) VALUES (?, ?)", [1, "a"]) }
        #expect {
            try store.write { db in
                try db.run("INSERT INTO items(id, name) VALUES (?, ?)", [2, "b"])
                try db.run("INSERT INTO items(id, name) VALUES (?, ?)", [3, "a"])
            }
        } throws: { ($0 as? DatabaseError)?.isConstraintViolation == true }
        #expect(try store.read { db in try db.query("SELECT name FROM items ORDER BY id").map { try $0["name"] as String } } == ["a"])
        // The connection is usable after the failure.
        try store.write { db in try db.run("INSERT INTO items(id, name) VALUES (?, ?)", [2, "b"]) }
        #expect(try store.read { db in try db.query("SELECT count(*) AS n FROM items")[0]["n"] as Int64 } == 2)
    }

    // On PostgreSQL a transaction's BEGIN goes to the server with its first statement (one round
    // trip): these are the cases where that first statement fails or never comes.
    @Test("a transaction whose first statement fails keeps nothing, and its connection serves the next", arguments: [Connection.Engine.sqlite, .postgres])
    func firstStatementFails(engine: Connection.Engine) throws {
        var configuration = Store.Configuration(maximumPostgresConnections: 1)  // the next write gets the same connection
        configuration.maximumIdleReaders = 1
        let store: Store = switch engine {
        case .sqlite: try Store.temporary(migrations: [Self.schema], configuration: configuration)
        case .postgres: try Store.open(postgres: try PostgresServer.shared().newDatabase(), migrations: [Self.schema], configuration: configuration)
        }
        try store.write { db in try db.run("INSERT INTO items(id, name) VALUES (?, ?)", [1, "a"]) }
        for _ in 0..<3 {
            #expect {
                try store.write { db in
                    try db.run("INSERT INTO items(id, name) VALUES (?, ?)", [2, "a"])  // name is UNIQUE
                    try db.run("INSERT INTO items(id, name) VALUES (?, ?)", [3, "c"])
                }
            } throws: { ($0 as? DatabaseError)?.isConstraintViolation == true }
            #expect {
                try store.read { db in try db.query("SELECT nothing FROM items") }
            } throws: { $0 is DatabaseError }
        }
        #expect(try store.write { _ in 42 } == 42, "a write that runs no statement")
        #expect(try store.read { _ in "none" } == "none", "a read that runs no statement")
        try store.write { db in try db.run("INSERT INTO items(id, name) VALUES (?, ?)", [2, "b"]) }
        #expect(try store.read { db in try db.query("SELECT name FROM items ORDER BY id").map { try $0["name"] as String } } == ["a", "b"])
    }

    @Test("numbered placeholders, INSERT OR IGNORE, and the count of changed rows", arguments: [Connection.Engine.sqlite, .postgres])
    func dialect(engine: Connection.Engine) throws {
        let store = try Self.open(engine)
        let changed = try store.write { db -> [Int] in
            try db.run("INSERT OR IGNORE INTO items(id, name) VALUES (?, ?)", [1, "a"])
            let first = db.changes
            try db.run("INSERT OR IGNORE INTO items(id, name) VALUES (?, ?)", [1, "a"])
            let second = db.changes
            try db.run("UPDATE items SET name = ?2 WHERE id = ?1 AND name <> ?2", [1, "b"])
            return [first, second, db.changes]
        }
        #expect(changed == [1, 0, 1])
        #expect(try store.read { db in try db.query("SELECT name FROM items WHERE id = ?1 OR id = ?1", [1])[0]["name"] as String } == "b")
    }

    @Test("migrations run once; a database from a newer build is refused", arguments: [Connection.Engine.sqlite, .postgres])
    func migrations(engine: Connection.Engine) throws {
        let url: String
        switch engine {
        case .sqlite: url = TemporaryDirectory().file("m.sqlite").path
        case .postgres: url = try PostgresServer.shared().newDatabase()
        }
        func open(_ migrations: [Migration]) throws -> Store {
            engine == .sqlite ? try Store.open(path: url, migrations: migrations) : try Store.open(postgres: url, migrations: migrations)
        }
        let second = Migration(version: 2, name: "notes", sql: "ALTER TABLE items ADD COLUMN note TEXT")
        do {
            let store = try open([Self.schema, second])
            try store.write { db in try db.run("INSERT INTO items(id, name, note) VALUES (1, 'a', 'n')") }
        }
        let again = try open([Self.schema, second])  // nothing runs twice (the INSERT of counters would fail)
        #expect(try again.read { db in try Migrator.version(of: db) } == 2)
        #expect(throws: DatabaseError.schemaTooNew) { try open([Self.schema]) }
    }

    @Test(
        "read-modify-write from many threads (and, on PostgreSQL, two stores on one database) loses no update",
        .timeLimit(.minutes(1)), arguments: [Connection.Engine.sqlite, .postgres])
    func concurrentIncrements(engine: Connection.Engine) throws {
        let first = try Self.open(engine)
        // On PostgreSQL, a second store on the same database: a replica.
        let replicas = engine == .postgres ? [first, try Store.open(postgres: first.url!, migrations: [Self.schema])] : [first]
        let threads = (0..<8).map { index in
            BackgroundThread<Void> {
                for _ in 0..<25 {
                    try replicas[index % replicas.count].write { db in
                        let value: Int64 = try db.query("SELECT value FROM counters WHERE name = 'hits'")[0]["value"]
                        try db.run("UPDATE counters SET value = ? WHERE name = 'hits'", [.integer(value + 1)])
                    }
                }
            }
        }
        for thread in threads { try thread.join() }
        #expect(try first.read { db in try db.query("SELECT value FROM counters")[0]["value"] as Int64 } == 200)
    }

    @Test("a write's notification wakes the listeners of every store on the database", .timeLimit(.minutes(1)), arguments: [Connection.Engine.sqlite, .postgres])
    func notifications(engine: Connection.Engine) throws {
        let writer = try Self.open(engine)
        let other = engine == .postgres ? try Store.open(postgres: writer.url!, migrations: [Self.schema]) : writer
        let heard = DispatchSemaphore(value: 0)
        other.listen("items") { heard.signal() }
        if engine == .postgres {
            // The listener says so once its LISTEN is in place (what came before it is unknown).
            #expect(heard.wait(timeout: .now() + 10) == .success)
        }
        // A write that fails notifies no one.
        _ = try? writer.write { db in
            db.notify("items")
            try db.run("INSERT INTO nowhere VALUES (1)")
        }
        try writer.write { db in
            try db.run("INSERT INTO items(id, name) VALUES (1, 'a')")
            db.notify("items")
        }
        #expect(heard.wait(timeout: .now() + 10) == .success)
        let row = try other.read { db in try db.query("SELECT name FROM items WHERE id = 1").first }
        #expect(try row?["name"] == "a")
    }
}
