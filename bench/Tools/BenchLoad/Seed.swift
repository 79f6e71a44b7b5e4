import HostStorage
import Foundation
import SandboxStore

// MARK: - seed

func seed(_ arguments: Arguments) {
    let path = arguments.required("db")
    let terminal = arguments.required("terminal")
    let merchant = arguments.required("merchant")
    let currency = arguments.string("currency") ?? "EUR"
    let rows = arguments.int("rows", default: 10_000)
    guard let now = Int64(arguments.required("now-ms")) else { fail("--now-ms must be milliseconds") }
    let days = arguments.int("days", default: 90)
    let batch = max(1, arguments.int("batch", default: 50_000))
    var random = SplitMix(state: UInt64(arguments.int("seed", default: 42)))
    let began = monotonicNanos()
    do {
        let db = try SandboxStore.Connection(path: path)
        _ = try db.query("PRAGMA journal_mode")
        // Seeding is set-up, not the measurement: no fsync per batch, a cache big enough for the indexes,
        // statement journals (each insert fires the rollup triggers) in memory. The rows go through the
        // host's own triggers, so its hour and day totals are kept as its own writes keep them.
        try db.execute("PRAGMA synchronous = OFF")
        try db.execute("PRAGMA cache_size = -1000000")
        try db.execute("PRAGMA temp_store = MEMORY")
        guard try !db.query("SELECT 1 FROM terminals WHERE id = ?", [.text(terminal)]).isEmpty else {
            fail("\(path) has no terminal \(terminal): start the host once with the bench fixtures first")
        }
        guard try !db.query("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = 'transactions_rollup_insert'").isEmpty else {
            fail("\(path) has no rollup triggers (schema 6): start a host of this build on it first")
        }
        // Oldest first, so seq follows created_at as it does on a real host; spread evenly with jitter.
        let span = Int64(days) * 86_400_000
        let step = Double(span) / Double(max(rows, 1))
        var index = 0
        while index < rows {
            try db.execute("BEGIN IMMEDIATE")
            let statement = try db.cachedStatement(TransactionRecord.table.insert)
            for _ in 0..<min(batch, rows - index) {
                let offset = Int64(Double(index) * step + Double.random(in: 0..<step, using: &random))
                let createdAt = now - span + offset
                try statement.run(TransactionRecord.table.values(of: seedRow(terminal: terminal, merchant: merchant, currency: currency, createdAt: createdAt, &random)))
                index += 1
            }
            try db.execute("COMMIT")
        }
        _ = try db.query("PRAGMA wal_checkpoint(TRUNCATE)")
    } catch {
        fail("seed: \(error)")
    }
    let seconds = Double(monotonicNanos() - began) / 1e9
    print(json(["rows": rows, "seconds": seconds, "rows_per_second": Double(rows) / seconds]))
}
