import HostStorage
import Foundation
import SandboxStore

// MARK: - raw-sqlite: the storage bound of a durable sale

/// Commits transaction rows for many threads.
protocol RowWriter: Sendable {
    func commit(_ values: [DatabaseValue]) throws
}

/// One connection shared by every thread, one transaction (and one WAL sync) per row, as the
/// host's Store shares its writer.
final class SharedWriter: RowWriter, @unchecked Sendable {
    private let lock = NSLock()
    private let db: SandboxStore.Connection
    init(_ db: SandboxStore.Connection) { self.db = db }
    func commit(_ values: [DatabaseValue]) throws {
        lock.lock()
        defer { lock.unlock() }
        try db.execute("BEGIN IMMEDIATE")
        do {
            try db.run(TransactionRecord.table.insert, values)
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }
}

/// The host's own store: each row is one `Store.write`, which shares the writer's next commit with
/// the rows that wait meanwhile (group commit) and returns once the syncer's WAL sync covers it,
/// commits and syncs overlapping. The same durability as one commit per row; no HTTP, JSON or
/// sealed payload: the storage's own bound of a durable sale.
final class StoreWriter: RowWriter, @unchecked Sendable {
    private let store: Store
    init(_ store: Store) { self.store = store }
    func commit(_ values: [DatabaseValue]) throws {
        try store.write { db in try db.run(TransactionRecord.table.insert, values) }
    }
}

func rawSQLite(_ arguments: Arguments) {
    let source = arguments.required("schema-from")
    let path = arguments.required("db")
    let terminals = arguments.required("terminals").split(separator: ",").map(String.init)
    let merchant = arguments.required("merchant")
    let currency = arguments.string("currency") ?? "EUR"
    let through = arguments.string("writer") ?? "row"
    guard ["row", "store"].contains(through) else { fail("--writer is row or store, not \(through)") }
    let writer: any RowWriter
    do {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let db = try SandboxStore.Connection(path: path)
        let mode: String = try db.query("PRAGMA journal_mode = WAL")[0][0]
        guard mode.lowercased() == "wal" else { fail("\(path): journal mode is \(mode), not WAL") }
        try db.execute("PRAGMA synchronous = FULL")
        // The host's own tables, indexes and triggers (the rollups a transaction row updates), and its
        // merchant and terminal rows (foreign keys are on).
        try db.execute("ATTACH DATABASE '\(source.replacingOccurrences(of: "'", with: "''"))' AS src")
        let ddl = try db.query(
            """
            SELECT sql FROM src.sqlite_master
            WHERE sql IS NOT NULL AND tbl_name IN ('merchants', 'terminals', 'transactions', 'transaction_hours', 'transaction_days')
            ORDER BY type = 'trigger', type = 'index', CASE tbl_name WHEN 'merchants' THEN 0 WHEN 'terminals' THEN 1 ELSE 2 END
            """)
        guard ddl.count >= 3 else { fail("\(source) has no transactions table: start the host on it first") }
        for row in ddl { try db.execute(try row[0] as String) }
        try db.execute("INSERT INTO main.merchants SELECT * FROM src.merchants")
        try db.execute("INSERT INTO main.terminals SELECT * FROM src.terminals")
        try db.execute("DETACH DATABASE src")
        // The store opens its own connections on the file (with its own pragmas); this one closes at the end of the block.
        writer = through == "store" ? StoreWriter(try Store.open(path: path, migrations: [])) : SharedWriter(db)
    } catch {
        fail("raw-sqlite: \(error)")
    }
    let threads = arguments.int("threads", default: terminals.count)
    runLoad(
        label: through == "store" ? "raw-sqlite-store" : "raw-sqlite", connections: threads, warmup: arguments.double("warmup", default: 1),
        duration: arguments.double("duration", default: 10), latenciesFile: arguments.string("latencies")
    ) { index in
        let terminal = terminals[index % terminals.count]
        return {
            // A cleared sale's row, as the host writes it: a fresh id, the card, the issuer's answer.
            var random = SystemRandomNumberGenerator()
            var row = seedRow(terminal: terminal, merchant: merchant, currency: currency, createdAt: wallMillis(), &random)
            (row.type, row.status) = (.AUTH, .CLEARED)
            do {
                try writer.commit(TransactionRecord.table.values(of: row))
                return .ok
            } catch {
                return .failed("\(error)")
            }
        }
    }
}
