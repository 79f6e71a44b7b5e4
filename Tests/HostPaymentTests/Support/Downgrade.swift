import HostStorage
import Foundation
@testable import EnvironmentHost
@testable import HostRules
import SandboxStore

/// Rewrites a stopped host's database as an older build left it: a new file made by the host's
/// own migrations up to `version`, holding every row of the tables that version has. A host
/// started on it then migrates it as it would a database of that build.
func rewriteDatabase(_ path: String, asVersion version: Int) throws {
    let older = path + ".v\(version)"
    try? FileManager.default.removeItem(atPath: older)
    do {
        let db = try SandboxStore.Connection(path: older)
        try Migrator(migrations: HostSchema.migrations.filter { $0.version <= version }).migrate(db)
        try db.execute("ATTACH DATABASE '\(path.replacingOccurrences(of: "'", with: "''"))' AS newer")
        let tables: [String] = try db.query(
            "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        ).map { try $0["name"] }
        try db.execute("BEGIN")
        for table in tables {
            // By the old table's columns: a later migration may have added or reordered some.
            let columns: [String] = try db.query("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]).map { try $0["name"] }
            let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            try db.execute("INSERT INTO main.\(table) (\(list)) SELECT \(list) FROM newer.\(table)")
        }
        try db.execute("COMMIT")
        try db.execute("DETACH DATABASE newer")
    }
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    try FileManager.default.moveItem(atPath: older, toPath: path)
}

/// The schema version (`PRAGMA user_version`) and table names of a database file.
func schema(of path: String) throws -> (version: Int, tables: Set<String>) {
    let db = try SandboxStore.Connection(path: path, access: .readOnly)
    let tables: [String] = try db.query("SELECT name FROM sqlite_master WHERE type = 'table'").map { try $0["name"] }
    return (try Migrator.version(of: db), Set(tables))
}
