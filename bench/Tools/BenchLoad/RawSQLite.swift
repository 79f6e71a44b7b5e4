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

/// Group commit: callers queue their rows; whoever finds no commit running takes every queued row
/// into one transaction, commits once (one WAL sync), and wakes the callers. Each caller returns
/// only after its row is durable, so the guarantee is the same as one commit per row.
final class GroupWriter: RowWriter, @unchecked Sendable {
    private final class Pending {
        let values: [DatabaseValue]
        var error: (any Error)?
        var done = false
        init(_ values: [DatabaseValue]) { self.values = values }
    }
    private let condition = NSCondition()
    private var queue: [Pending] = []
    private var committing = false
    private let db: SandboxStore.Connection
    init(_ db: SandboxStore.Connection) { self.db = db }

    func commit(_ values: [DatabaseValue]) throws {
        let mine = Pending(values)
        condition.lock()
        queue.append(mine)
        while !mine.done {
            if committing {
                condition.wait()
                continue
            }
            // Lead one batch: everything queued so far, ours included.
            let batch = queue
            queue = []
            committing = true
            condition.unlock()
            var failure: (any Error)?
            do {
                try db.execute("BEGIN IMMEDIATE")
                for pending in batch { try db.run(TransactionRecord.table.insert, pending.values) }
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                failure = error
            }
            condition.lock()
            for pending in batch {
                pending.error = failure
                pending.done = true
            }
            committing = false
            condition.broadcast()
        }
        condition.unlock()
        if let error = mine.error { throw error }
    }
}

func rawSQLite(_ arguments: Arguments) {
    let source = arguments.required("schema-from")
    let path = arguments.required("db")
    let terminals = arguments.required("terminals").split(separator: ",").map(String.init)
    let merchant = arguments.required("merchant")
    let currency = arguments.string("currency") ?? "EUR"
    let grouped = arguments.string("group-commit") == "1"
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
        writer = grouped ? GroupWriter(db) : SharedWriter(db)
    } catch {
        fail("raw-sqlite: \(error)")
    }
    let threads = arguments.int("threads", default: terminals.count)
    runLoad(
        label: grouped ? "raw-sqlite-group-commit" : "raw-sqlite", connections: threads, warmup: arguments.double("warmup", default: 1),
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
