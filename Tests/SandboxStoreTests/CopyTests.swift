import Foundation
import SandboxStore
import SandboxTestSupport
import Testing

/// Whole-database copies (`Connection.backup(to:)`, `Store.restore(from:)`): what a sandbox
/// snapshot is made of.
@Suite("Store copies: backup and bringing a copy back")
struct CopyTests {
    /// Accounts with an AUTOINCREMENT id, entries that a trigger totals into them, an implicit
    /// rowid table, and foreign keys (`account_holds` comes before its parent `accounts` by name,
    /// as the hosts' `challenges` come before `terminals`).
    static let ledger = Migration(version: 1, name: "ledger", sql: """
        CREATE TABLE accounts(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, total INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE entries(account INTEGER NOT NULL REFERENCES accounts(id), amount INTEGER NOT NULL);
        CREATE INDEX entries_by_account ON entries(account);
        CREATE TABLE account_holds(account INTEGER NOT NULL REFERENCES accounts(id), reason TEXT NOT NULL);
        CREATE TRIGGER entries_total AFTER INSERT ON entries BEGIN
            UPDATE accounts SET total = total + NEW.amount WHERE id = NEW.account;
        END;
        """)

    static func state(_ db: Connection) throws -> [String] {
        try db.query("SELECT id, name, total FROM accounts ORDER BY id").map { "\($0.values)" }
            + db.query("SELECT rowid, account, amount FROM entries ORDER BY rowid").map { "\($0.values)" }
            + db.query("SELECT rowid, account, reason FROM account_holds ORDER BY rowid").map { "\($0.values)" }
            + db.query("SELECT name, seq FROM sqlite_sequence ORDER BY name").map { "\($0.values)" }
    }

    @Test("save, change everything, bring the copy back: the same rows, rowids and sequence; triggers fire again afterwards, not on the copied rows")
    func roundTrip() throws {
        let store = try Store.temporary(migrations: [Self.ledger])
        let folder = TemporaryDirectory()
        try store.write { db in
            try db.run("INSERT INTO accounts(name) VALUES ('anna'), ('ben')")
            try db.run("INSERT INTO entries(account, amount) VALUES (1, 1250), (1, 800), (2, 4500)")
            try db.run("INSERT INTO account_holds(account, reason) VALUES (2, 'chargeback')")
        }
        let saved = try store.read { db in try Self.state(db) }
        let copy = folder.file("before.sqlite").path
        try store.read { db in try db.backup(to: copy) }
        #expect(!FileManager.default.fileExists(atPath: copy + "-wal"), "the copy is whole in its one file")

        try store.write { db in
            try db.run("DELETE FROM entries WHERE amount = 800")
            try db.run("INSERT INTO accounts(name) VALUES ('carl')")
            try db.run("INSERT INTO entries(account, amount) VALUES (3, 99)")
            try db.run("UPDATE accounts SET name = 'ann' WHERE id = 1")
        }
        #expect(try store.read { db in try Self.state(db) } != saved)

        try store.restore(from: copy)
        #expect(try store.read { db in try Self.state(db) } == saved)

        // The trigger is back (it did not fire on the copied rows: totals are the copy's), and the
        // AUTOINCREMENT sequence goes on from the copy's.
        try store.write { db in
            try db.run("INSERT INTO accounts(name) VALUES ('dora')")
            try db.run("INSERT INTO entries(account, amount) VALUES (1, 50)")
        }
        let anna: Int64 = try store.read { db in try db.query("SELECT total FROM accounts WHERE name = 'anna'")[0][0] }
        let dora: Int64 = try store.read { db in try db.query("SELECT id FROM accounts WHERE name = 'dora'")[0][0] }
        #expect(anna == 2100 && dora == 3, "anna \(anna), dora's id \(dora) (carl's 3 was not kept)")
    }

    @Test("a copy of another schema is refused and nothing changes")
    func otherSchemaIsRefused() throws {
        let store = try Store.temporary(migrations: [Self.ledger])
        try store.write { db in try db.run("INSERT INTO accounts(name) VALUES ('anna')") }
        let other = try Store.temporary(migrations: [Schemas.items])
        let folder = TemporaryDirectory()
        let copy = folder.file("items.sqlite").path
        try other.read { db in try db.backup(to: copy) }
        let error = #expect(throws: DatabaseError.self) {
            try store.restore(from: copy)
        }
        #expect(error == .schemaMismatch, "\(String(describing: error))")
        #expect(try store.read { db in try db.count("accounts") } == 1)
    }

    @Test("a backup never overwrites a file, and a restore runs only outside a transaction")
    func misuse() throws {
        let store = try Store.temporary(migrations: [Self.ledger])
        let folder = TemporaryDirectory()
        let copy = folder.file("taken.sqlite").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: copy))
        #expect(throws: DatabaseError.misuse) { try store.read { db in try db.backup(to: copy) } }
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == "keep me")
        let fresh = folder.file("fresh.sqlite").path
        try store.read { db in try db.backup(to: fresh) }
        #expect(throws: DatabaseError.misuse) { try store.write { db in try db.restore(from: fresh) } }
    }

    @Test("a reader sees the old contents or the new, never a mix")
    func readersSeeOneOrTheOther() throws {
        let store = try Store.temporary(migrations: [Self.ledger])
        let folder = TemporaryDirectory()
        try store.write { db in
            try db.run("INSERT INTO accounts(name) VALUES ('anna'), ('ben')")
            for _ in 0..<500 { try db.run("INSERT INTO entries(account, amount) VALUES (1, 1), (2, 2)") }
        }
        let copy = folder.file("copy.sqlite").path
        try store.read { db in try db.backup(to: copy) }
        try store.write { db in try db.run("INSERT INTO entries(account, amount) VALUES (1, 7)") }
        // Totals and entries agree in every read, whichever side of the restore it falls on.
        let done = Flag()
        let reader = BackgroundThread { () throws -> (reads: Int, mixed: [String]) in
            var reads = 0
            var mixed: [String] = []
            while !done.isSet || reads == 0 {
                // One statement: one read transaction.
                let row = try store.read { db in
                    try db.query("SELECT (SELECT sum(total) FROM accounts) AS total, (SELECT sum(amount) FROM entries) AS sum")[0]
                }
                let (total, sum): (Int64, Int64) = (try row["total"], try row["sum"])
                if total != sum { mixed.append("totals \(total), entries \(sum)") }
                reads += 1
            }
            return (reads, mixed)
        }
        for _ in 0..<5 { try store.restore(from: copy) }
        done.set()
        let seen = try reader.join()
        #expect(seen.reads > 0 && seen.mixed.isEmpty, "half-restored reads: \(seen.mixed.prefix(3))")
        #expect(try store.read { db in try db.query("SELECT sum(amount) FROM entries")[0][0] as Int64 } == 1500)
    }
}
