import HostStorage
import Foundation
import SandboxStore

// MARK: - raw-query and explain: the SQL of the history endpoints, in-process

/// The statements one history endpoint runs, the host's own (TransactionRepository's SQL, no filters
/// but the terminal; statistics over [from, to]), with their values for a page.
func endpointStatements(_ name: String, terminal: String, from: Int64, to: Int64) -> [(String, @Sendable (Int) -> [DatabaseValue])] {
    let all: [DatabaseValue] = [.text(terminal), .integer(0), .integer(Int64.max)]
    let count = (TransactionRepository.countSQL(filters: ""), { @Sendable (_: Int) in Rollup(from: 0, to: Int64.max).values(terminal: terminal) })
    let window = Rollup(from: from, to: to).values(terminal: terminal)
    switch name {
    case "history":
        return [count, (TransactionRepository.historySQL(filters: ""), { page in all + [.integer(20), .integer(Int64((page - 1) * 20))] })]
    case "count":
        return [count]
    case "stats-daily":
        return [(TransactionRepository.dailyStatisticsSQL, { _ in window })]
    case "stats-brand":
        return [(TransactionRepository.brandStatisticsSQL, { _ in window })]
    case "approved-after":
        // CardPayments.isCancellable's question of a cleared sale younger than 30 minutes (its
        // plan matters, not its figure: seq 0 finds the terminal's first approved sale at once).
        return [(TransactionRepository.approvedSaleAfterSQL, { _ in [.text(terminal), .integer(0)] })]
    default:
        fail("--query must be history, count, stats-daily, stats-brand or approved-after")
    }
}

func window(_ arguments: Arguments) -> (from: Int64, to: Int64) {
    let to = Int64(arguments.string("to-ms") ?? "") ?? wallMillis()
    let from = Int64(arguments.string("from-ms") ?? "") ?? to - 90 * 86_400_000
    return (from, to)
}

func rawQuery(_ arguments: Arguments) {
    let path = arguments.required("db")
    let name = arguments.required("query")
    let (from, to) = window(arguments)
    let statements = endpointStatements(name, terminal: arguments.required("terminal"), from: from, to: to)
    let pages: ClosedRange<Int> = {
        let parts = (arguments.string("pages") ?? "1-1").split(separator: "-").compactMap { Int($0) }
        return parts.count == 2 ? parts[0]...parts[1] : 1...1
    }()
    let connections = arguments.int("connections", default: 1)
    let handles: [SharedQuery] = (0..<connections).map { _ in
        do { return SharedQuery(try SandboxStore.Connection(path: path, access: .readOnly)) } catch { fail("raw-query: \(error)") }
    }
    runLoad(
        label: "raw-" + name, connections: connections, warmup: arguments.double("warmup", default: 1),
        duration: arguments.double("duration", default: 3),
        warmupRequests: arguments.string("warmup-requests") == nil ? nil : arguments.int("warmup-requests", default: 1),
        latenciesFile: arguments.string("latencies")
    ) { index in
        let handle = handles[index]
        return {
            let page = Int.random(in: pages)
            do {
                try handle.run(statements.map { ($0.0, $0.1(page)) })
                return .ok
            } catch {
                return .failed("\(error)")
            }
        }
    }
}

/// Prints `EXPLAIN QUERY PLAN` of every statement of the history endpoints.
func explain(_ arguments: Arguments) {
    let (from, to) = window(arguments)
    let terminal = arguments.required("terminal")
    do {
        let db = try SandboxStore.Connection(path: arguments.required("db"), access: .readOnly)
        for name in ["history", "count", "stats-daily", "stats-brand", "approved-after"] {
            for (sql, values) in endpointStatements(name, terminal: terminal, from: from, to: to) {
                print("\(name): \(sql)")
                for row in try db.query("EXPLAIN QUERY PLAN " + sql, values(1)) {
                    print("    " + (try row["detail"] as String))
                }
            }
        }
    } catch {
        fail("explain: \(error)")
    }
}

/// A read-only connection used by one thread only.
final class SharedQuery: @unchecked Sendable {
    private let db: SandboxStore.Connection
    init(_ db: SandboxStore.Connection) { self.db = db }
    func run(_ statements: [(String, [DatabaseValue])]) throws {
        try db.execute("BEGIN")
        defer { try? db.execute("COMMIT") }
        for (sql, values) in statements { _ = try db.query(sql, values) }
    }
}
