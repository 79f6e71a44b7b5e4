import Foundation
import SandboxStore
import SandboxTestSupport
import Testing

@Suite("Connection, statements and values")
struct ConnectionTests {
    private func memory() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t(v)")  // no declared type: SQLite keeps each value's own class
        return db
    }

    @Test("running the same SQL many times compiles it once")
    func statementCacheReuses() throws {
        let db = try memory()
        let before = db.preparedStatementCount
        for value in 0..<100 {
            try db.run("INSERT INTO t(v) VALUES (?)", [.integer(Int64(value))])
        }
        #expect(db.preparedStatementCount == before + 1)
        let sum: Int64 = try db.query("SELECT sum(v) FROM t")[0][0]
        #expect(sum == 4950)
        #expect(db.preparedStatementCount == before + 2)
        _ = try db.query("SELECT sum(v) FROM t")
        #expect(db.preparedStatementCount == before + 2)
        #expect(db.cachedStatementCount == 2)
    }

    @Test("a cached statement is handed back reset, with its bindings cleared")
    func cachedStatementIsResetAndCleared() throws {
        let db = try memory()
        let first = try db.query("SELECT ? AS v", [42])
        #expect(try first[0]["v"] == 42 as Int64)

        let statement = try db.cachedStatement("SELECT ? AS v")
        let row = try #require(try statement.step())  // no bind: the old 42 must be gone
        #expect(row.values == [.null])
        #expect(try statement.step() == nil)
        statement.reset()
        #expect(try db.query("SELECT ? AS v", [7])[0].values == [7])
    }

    @Test("a cached SELECT * names the columns of the schema it runs on")
    func cachedSelectFollowsSchemaChanges() throws {
        let db = try memory()
        try db.execute("CREATE TABLE s(a INTEGER, b TEXT); INSERT INTO s VALUES (1, 'x')")
        #expect(try db.query("SELECT * FROM s")[0].columns == ["a", "b"])
        try db.execute("ALTER TABLE s RENAME COLUMN b TO c")
        let renamed = try db.query("SELECT * FROM s")[0]
        #expect(renamed.columns == ["a", "c"])
        #expect(try renamed["c"] == "x")
        try db.execute("ALTER TABLE s ADD COLUMN d INTEGER DEFAULT 5")
        #expect(try db.query("SELECT * FROM s")[0].columns == ["a", "c", "d"])
    }

    @Test("a statement that failed can run again")
    func statementUsableAfterFailure() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE u(v INTEGER UNIQUE)")
        try db.run("INSERT INTO u(v) VALUES (?)", [1])
        #expect(throws: DatabaseError.constraintViolation) {
            try db.run("INSERT INTO u(v) VALUES (?)", [1])
        }
        try db.run("INSERT INTO u(v) VALUES (?)", [2])
        #expect(try db.count("u") == 2)
    }

    @Test(
        "every value type round-trips through the store",
        arguments: [
            DatabaseValue.null,
            .integer(0), .integer(-1), .integer(Int64.max), .integer(Int64.min),
            .real(3.141592653589793), .real(-2.5e-300), .real(1.7976931348623157e308),
            .text(""), .text("plain"), .text("Zürich · Kraków · 東京 · ₿ · 🧾👩🏽‍💻"), .text("quote ' and \" and \\"),
            .blob([]), .blob([0]), .blob([0x00, 0xFF, 0x10, 0x00, 0x7F]), .blob(Array(0...255)),
        ]
    )
    func valueRoundTrip(value: DatabaseValue) throws {
        let store = try Store.temporary(migrations: [Migration(version: 1, name: "values", sql: "CREATE TABLE t(v)")])
        let id = try store.write { db in
            try db.run("INSERT INTO t(v) VALUES (?)", [value])
            return db.lastInsertRowID
        }
        let read: DatabaseValue = try store.read { db in
            try db.query("SELECT v FROM t WHERE rowid = ?", [.integer(id)])[0]["v"]
        }
        #expect(read == value)
        // SQLite stored it in its own storage class, not a coerced one.
        let typeOf: String = try store.read { db in
            try db.query("SELECT typeof(v) FROM t WHERE rowid = ?", [.integer(id)])[0][0]
        }
        let expected = switch value {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
        #expect(typeOf == expected)
    }

    @Test("rows convert to Swift types by name, strictly, with NULL as nil")
    func typedRowAccess() throws {
        let db = try Connection(path: ":memory:")
        let row = try #require(try db.query("""
            SELECT 9223372036854775807 AS big, 2.5 AS ratio, 'Łódź' AS city, x'00ff' AS bytes,
                   NULL AS note, 1 AS flag, 3 AS whole
            """).first)
        #expect(try row["big"] == Int64.max)
        #expect(try row["ratio"] == 2.5)
        #expect(try row["CITY"] == "Łódź")  // SQLite names match case-insensitively
        #expect(try row["bytes"] == [0x00, 0xFF] as [UInt8])
        #expect(try row["bytes"] == Data([0x00, 0xFF]))
        #expect(try row["note"] == String?.none)
        #expect(try row["flag"] == true)
        #expect(try row["whole"] == 3.0)  // an integer reads as a Double
        #expect(try row[2] == "Łódź")

        #expect(throws: DatabaseError.typeMismatch) { let _: Int64 = try row["city"] }
        #expect(throws: DatabaseError.typeMismatch) { let _: String = try row["note"] }  // NULL needs String?
        #expect(throws: DatabaseError.typeMismatch) { let _: Int64? = try row["city"] }
        #expect(throws: DatabaseError.columnNotFound) { let _: Int64 = try row["missing"] }
        #expect(throws: DatabaseError.columnNotFound) { let _: Int64 = try row[7] }
    }

    @Test("optionals and literals bind as expected")
    func binding() throws {
        let db = try memory()
        let missing: String? = nil
        let present: String? = "here"
        try db.run("INSERT INTO t(v) VALUES (?), (?), (?), (?), (?)", [missing.databaseValue, present.databaseValue, true, 1.5, "lit"])
        let values = try db.query("SELECT v FROM t ORDER BY rowid").map(\.values[0])
        #expect(values == [.null, .text("here"), .integer(1), .real(1.5), .text("lit")])
    }

    @Test("API misuse is reported, not silently accepted")
    func misuse() throws {
        let db = try memory()
        #expect(throws: DatabaseError.misuse) {
            try db.run("INSERT INTO t(v) VALUES (?)", [])  // would otherwise insert NULL
        }
        #expect(throws: DatabaseError.misuse) {
            try db.run("INSERT INTO t(v) VALUES (?)", [1, 2])
        }
        #expect(throws: DatabaseError.misuse) {
            try db.prepare("INSERT INTO t(v) VALUES (1); INSERT INTO t(v) VALUES (2)")  // second would be dropped
        }
        #expect(try db.count("t") == 0)
        _ = try db.prepare("SELECT 1; -- a trailing comment is fine")
    }

    @Test("execute runs a whole script and reports the failing statement")
    func executeScript() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE a(x); INSERT INTO a VALUES (1); INSERT INTO a VALUES (2);")
        #expect(try db.count("a") == 2)
        let error = #expect(throws: DatabaseError.self) { try db.execute("INSERT INTO a VALUES (3); SELEC 1;") }
        #expect(error?.message.contains("syntax error") == true)
    }

    @Test("opening a read-only connection on a missing file fails with SQLite's reason")
    func openFailure() throws {
        let directory = TemporaryDirectory()
        let error = #expect(throws: DatabaseError.self) {
            try Connection(path: directory.file("absent.sqlite").path, access: .readOnly)
        }
        #expect(error?.resultCode == 14)  // SQLITE_CANTOPEN
        #expect(error?.message.contains("absent.sqlite") == true)
    }
}
