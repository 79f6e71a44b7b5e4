import SandboxStore

/// Migrations shared by the suites.
enum Schemas {
    static let items = Migration(version: 1, name: "items", sql: """
        CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        """)

    static let parentsAndChildren = Migration(version: 1, name: "parents and children", sql: """
        CREATE TABLE parents(id INTEGER PRIMARY KEY);
        CREATE TABLE children(id INTEGER PRIMARY KEY, parent INTEGER NOT NULL REFERENCES parents(id));
        """)

    /// Must match Tests/Tools/StoreCrashWriter/main.swift, which owns the same file.
    static let crashRows = Migration(
        version: 1,
        name: "rows",
        sql: "CREATE TABLE rows(id INTEGER PRIMARY KEY, payload TEXT NOT NULL)"
    )
}

extension Connection {
    /// `SELECT count(*) FROM table`.
    func count(_ table: String) throws -> Int {
        try query("SELECT count(*) FROM \(table)")[0][0]
    }
}
