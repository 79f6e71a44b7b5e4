import Foundation
import SandboxStore
import SandboxTestSupport
import Testing

@Suite("Store transactions and errors")
struct StoreTransactionTests {
    @Test("a write that throws leaves nothing behind and rethrows the caller's error")
    func rollbackOnThrow() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        #expect(throws: TestFailure("card declined")) {
            try store.write { db in
                try db.run("INSERT INTO items(name) VALUES (?)", ["first"])
                try db.run("INSERT INTO items(name) VALUES (?)", ["second"])
                throw TestFailure("card declined")
            }
        }
        #expect(try store.read { try $0.count("items") } == 0)
        // The writer is usable again: no transaction was left open.
        try store.write { try $0.run("INSERT INTO items(name) VALUES (?)", ["third"]) }
        #expect(try store.read { try $0.count("items") } == 1)
    }

    @Test("a write returns its closure's value once committed")
    func writeReturnsValue() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        let id = try store.write { db in
            try db.run("INSERT INTO items(name) VALUES (?)", ["a"])
            #expect(db.changes == 1)
            return db.lastInsertRowID
        }
        let name: String = try store.read { db in
            try db.query("SELECT name FROM items WHERE id = ?", [.integer(id)])[0]["name"]
        }
        #expect(name == "a")
    }

    @Test("a unique violation is a typed constraint error, rolls back the transaction, and the store keeps working")
    func uniqueViolation() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        try store.write { try $0.run("INSERT INTO items(name) VALUES (?)", ["taken"]) }

        let error = #expect(throws: DatabaseError.self) {
            try store.write { db in
                try db.run("INSERT INTO items(name) VALUES (?)", ["fresh"])
                try db.run("INSERT INTO items(name) VALUES (?)", ["taken"])
            }
        }
        let violation = try #require(error)
        #expect(violation.isConstraintViolation)
        #expect(violation == .constraintViolation)
        #expect(violation.extendedResultCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(violation.resultCode == 19)  // SQLITE_CONSTRAINT
        #expect(violation.sql == "INSERT INTO items(name) VALUES (?)")
        #expect(violation.message.contains("UNIQUE constraint failed: items.name"))

        #expect(try store.read { try $0.count("items") } == 1)  // "fresh" was rolled back too
        try store.write { try $0.run("INSERT INTO items(name) VALUES (?)", ["after"]) }
        #expect(try store.read { try $0.count("items") } == 2)
    }

    @Test("foreign keys and NOT NULL are enforced as constraint errors")
    func foreignKeysAndNotNull() throws {
        let store = try Store.temporary(migrations: [Schemas.parentsAndChildren])
        let foreignKey = #expect(throws: DatabaseError.self) {
            try store.write { try $0.run("INSERT INTO children(parent) VALUES (?)", [42]) }
        }
        #expect(foreignKey?.isConstraintViolation == true)
        #expect(foreignKey?.extendedResultCode == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY

        let notNull = #expect(throws: DatabaseError.self) {
            try store.write { try $0.run("INSERT INTO children(parent) VALUES (?)", [nil]) }
        }
        #expect(notNull?.extendedResultCode == 1299)  // SQLITE_CONSTRAINT_NOTNULL
    }

    @Test("other SQL errors are not constraint violations and carry SQLite's message")
    func otherErrors() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        let error = #expect(throws: DatabaseError.self) {
            try store.read { try $0.query("SELECT nope FROM items") }
        }
        #expect(error == .sqlite)
        #expect(error?.isConstraintViolation == false)
        #expect(error?.message.contains("no such column: nope") == true)
        #expect(error?.sql == "SELECT nope FROM items")
    }

    @Test("the file is in WAL mode with foreign keys on; SQLite leaves the WAL sync to the store (synchronous=NORMAL)")
    func durabilityPragmas() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        let (journalMode, synchronous, foreignKeys): (String, Int, Int) = try store.write { db in
            (
                try db.query("PRAGMA journal_mode")[0][0],
                try db.query("PRAGMA synchronous")[0][0],
                try db.query("PRAGMA foreign_keys")[0][0]
            )
        }
        #expect(journalMode == "wal")
        #expect(synchronous == 1)  // NORMAL: the store syncs the WAL itself after each commit
        #expect(foreignKeys == 1)
    }

    @Test("the WAL is checkpointed every 10,000 pages unless configured otherwise, and checkpoints keep it from growing")
    func checkpointInterval() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        #expect(try store.write { db -> Int in try db.query("PRAGMA wal_autocheckpoint")[0][0] } == 10_000)
        // Only the automatic checkpoint: a background one still copying when the WAL wraps would make
        // the writer append instead of starting over (that one has its own test below).
        let small = try Store.temporary(migrations: [Schemas.items], configuration: .init(checkpointPages: 20, backgroundCheckpointCommits: 0))
        #expect(try small.write { db -> Int in try db.query("PRAGMA wal_autocheckpoint")[0][0] } == 20)
        // 200 commits of a page or more each: with a checkpoint every 20 pages the WAL starts over
        // and stays far below 200 pages.
        let filler = String(repeating: "x", count: 3_000)
        for index in 0..<200 { try small.write { try $0.run("INSERT INTO items(name) VALUES (?)", [.text("\(index) \(filler)")]) } }
        let walBytes = try FileManager.default.attributesOfItem(atPath: small.path + "-wal")[.size] as? Int ?? 0
        #expect(walBytes < 100 * 4_096, "the WAL grew to \(walBytes) bytes")
    }

    @Test("every few commits the WAL is copied into the database file on another thread, beside the writes")
    func backgroundCheckpoints() async throws {
        // The automatic checkpoint is out of reach (a million pages), so only the background one copies.
        func store(every commits: Int) throws -> Store {
            try Store.temporary(migrations: [Schemas.items], configuration: .init(checkpointPages: 1_000_000, backgroundCheckpointCommits: commits))
        }
        func insert(_ count: Int, into store: Store) throws {
            for _ in 0..<count { try store.write { try $0.run("INSERT INTO items(name) VALUES ('item ' || (SELECT count(*) FROM items))") } }
        }
        /// The rows of the database file without its WAL: what was checkpointed, and nothing else.
        func rowsInFileAlone(_ store: Store) throws -> Int {
            let copy = store.path + ".alone"
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: store.path, toPath: copy)
            let alone = try Connection(path: copy, access: .readOnly)
            let tables: Int = try alone.query("SELECT count(*) FROM sqlite_master WHERE name = 'items'")[0][0]
            return tables == 0 ? 0 : try alone.query("SELECT count(*) FROM items")[0][0]
        }
        let every4 = try store(every: 4)
        try insert(3, into: every4)
        #expect(every4.backgroundCheckpointCount == 0)
        try insert(1, into: every4)  // the 4th commit (the migration's is not counted)
        #expect(await eventually { every4.backgroundCheckpointCount == 1 }, "no checkpoint after the 4th commit")
        #expect(try rowsInFileAlone(every4) == 4)
        try insert(4, into: every4)
        #expect(await eventually { every4.backgroundCheckpointCount == 2 }, "no checkpoint after the 8th commit")
        #expect(try rowsInFileAlone(every4) == 8)
        let never = try store(every: 0)
        try insert(10, into: never)
        #expect(never.backgroundCheckpointCount == 0)
        #expect(try rowsInFileAlone(never) == 0)
    }

    @Test("every write returns after a sync of the WAL that covers it: writes one after another sync once each")
    func eachWriteIsSynced() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        let before = store.walSyncCount
        for index in 0..<5 {
            try store.write { try $0.run("INSERT INTO items(name) VALUES (?)", [.text("item \(index)")]) }
            #expect(store.walSyncCount == before + UInt64(index + 1), "write \(index + 1) returned without its own sync")
        }
        // A write that throws commits nothing and waits for no sync.
        _ = try? store.write { db in
            try db.run("INSERT INTO items(name) VALUES ('refused')")
            throw TestFailure("refused")
        }
        #expect(store.walSyncCount == before + 5)
    }

    @Test("a read cannot write, even by mistake")
    func readsAreReadOnly() throws {
        let store = try Store.temporary(migrations: [Schemas.items])
        let error = #expect(throws: DatabaseError.self) {
            try store.read { try $0.run("INSERT INTO items(name) VALUES ('sneaky')") }
        }
        #expect(error?.resultCode == 8)  // SQLITE_READONLY
        #expect(try store.read { try $0.count("items") } == 0)
    }
}
