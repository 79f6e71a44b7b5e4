import SandboxCore
import SandboxStore

/// Card transactions with what they spend and keep: card reads, idempotency keys, checkouts,
/// receipts, and the hour and day totals (``Rollup``) that count and statistics read.
///
/// The sale path runs through here once per request: each method is one statement, compiled once
/// per connection (the SQL texts are constants, so the connection's statement cache finds them).
package struct TransactionRepository {
    package let db: Connection

    // MARK: - Transactions

    package func record(id: String, terminal: String) throws -> TransactionRecord? {
        try db.query("SELECT * FROM transactions WHERE id = ? AND terminal_id = ?", [.text(id), .text(terminal)]).first
            .map(TransactionRecord.init)
    }

    /// The terminal's transactions whose in-flight deadline passed by `now`.
    package func expired(terminal: String, at now: Int64) throws -> [TransactionRecord] {
        try db.query(
            // INDEXED BY: with other indexes on terminal_id, SQLite may otherwise walk the whole history.
            "SELECT * FROM transactions INDEXED BY transactions_in_flight WHERE terminal_id = ? AND pending_until IS NOT NULL AND pending_until <= ?",
            [.text(terminal), .integer(now)]
        ).map(TransactionRecord.init)
    }

    /// Whether a transaction of the terminal is past its deadline (what ``expired(terminal:at:)`` would find).
    package func hasExpired(terminal: String, at now: Int64) throws -> Bool {
        try !db.query(
            "SELECT 1 FROM transactions INDEXED BY transactions_in_flight WHERE terminal_id = ? AND pending_until IS NOT NULL AND pending_until <= ? LIMIT 1",
            [.text(terminal), .integer(now)]
        ).isEmpty
    }

    /// Whether the terminal has a transaction in flight.
    package func hasInFlight(terminal: String) throws -> Bool {
        try !db.query(
            "SELECT 1 FROM transactions INDEXED BY transactions_in_flight WHERE terminal_id = ? AND pending_until IS NOT NULL",
            [.text(terminal)]
        ).isEmpty
    }

    /// The transactions a device's terminal has in flight (a device that leaves ends them).
    package func inFlight(device: String) throws -> [TransactionRecord] {
        try db.query(
            """
            SELECT * FROM transactions INDEXED BY transactions_in_flight
            WHERE pending_until IS NOT NULL
              AND terminal_id = (SELECT terminal_id FROM devices WHERE id = ? AND state = 'registered')
            """, [.text(device)]
        ).map(TransactionRecord.init)
    }

    /// Whether a sale of the same terminal after `sale` was ever approved. Only an approval gives a
    /// sale an auth id, and reversing or refunding it keeps the id.
    package func hasApprovedSale(after sale: TransactionRecord) throws -> Bool {
        try !db.query(Self.approvedSaleAfterSQL, [.text(sale.terminalID), .integer(sale.seq)]).isEmpty
    }

    /// Whether a terminal (`?`) approved a sale after `seq` (`?`).
    package static let approvedSaleAfterSQL =
        "SELECT 1 FROM transactions WHERE terminal_id = ? AND type = 'AUTH' AND seq > ? AND auth_id IS NOT NULL LIMIT 1"

    /// The terminal's last transaction: the later of its last sale and its last refund, each one
    /// seek in transactions_latest_by_type.
    package func last(terminal: String) throws -> TransactionRecord? {
        try db.query(
            """
            SELECT * FROM (SELECT * FROM transactions WHERE terminal_id = ?1 AND type = 'AUTH' ORDER BY seq DESC LIMIT 1) AS sale
            UNION ALL
            SELECT * FROM (SELECT * FROM transactions WHERE terminal_id = ?1 AND type = 'REFUND' ORDER BY seq DESC LIMIT 1) AS refund
            ORDER BY seq DESC LIMIT 1
            """, [.text(terminal)]
        ).first.map(TransactionRecord.init)
    }

    /// The terminal's transactions that carry `reference`: two at most, enough to tell whether it is unique.
    package func records(reference: String, terminal: String) throws -> [TransactionRecord] {
        try db.query("SELECT * FROM transactions WHERE reference = ? AND terminal_id = ? LIMIT 2", [.text(reference), .text(terminal)])
            .map(TransactionRecord.init)
    }

    // MARK: - History and count

    /// One page of the terminal's transactions that match `filter`, the latest first.
    package func history(terminal: String, _ filter: HistoryFilter) throws -> [TransactionRecord] {
        let (filters, values) = Self.filterClause(filter)
        return try db.query(
            Self.historySQL(filters: filters),
            [.text(terminal), .integer(filter.from), .integer(filter.to)] + values
                + [.integer(Int64(filter.itemsPerPage)), .integer(Int64((filter.page - 1) * filter.itemsPerPage))]
        ).map(TransactionRecord.init)
    }

    /// A page of one terminal's history with `filters` (` AND …`), the latest first: its values are
    /// the terminal, from, to, the filters' values, the page size and the offset.
    package static func historySQL(filters: String) -> String {
        "SELECT * FROM transactions WHERE terminal_id = ? AND created_at >= ? AND created_at <= ?" + filters
            + " ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?"
    }

    /// How many transactions of `terminal` match: whole hours and days from the rollups, the rest from rows.
    package func count(terminal: String, _ filter: HistoryFilter) throws -> Int {
        let (filters, values) = Self.filterClause(filter)
        let cuts = Rollup(from: filter.from, to: filter.to)
        return try db.query(Self.countSQL(filters: filters), cuts.values(terminal: terminal, filters: values)).first?["n"] ?? 0
    }

    /// How many transactions of one terminal match `filters` (`n`); its values are ``Rollup/values(terminal:filters:)``.
    package static func countSQL(filters: String) -> String {
        "SELECT COALESCE(SUM(n), 0) AS n FROM ("
            + Rollup.union(where: filters) { $0 == .rows ? "SELECT COUNT(*) AS n" : "SELECT SUM(n) AS n" } + ") AS parts"
    }

    // MARK: - Back office

    /// The back office's view over every terminal of the host (the portal's Transactions page).
    package struct BackOfficeFilter: Sendable {
        package var merchant: String?
        package var terminal: String?
        package var history: HistoryFilter

        package init(merchant: String?, terminal: String?, history: HistoryFilter) {
            (self.merchant, self.terminal, self.history) = (merchant, terminal, history)
        }
    }

    /// A page of the transactions that match, the latest first, and one more when there is a next page.
    package func backOffice(_ filter: BackOfficeFilter, limit: Int, offset: Int) throws -> [TransactionRecord] {
        let (filters, values) = Self.filterClause(filter.history)
        var scope = ""
        var scopeValues: [DatabaseValue] = []
        if let terminal = filter.terminal {
            scope += " AND terminal_id = ?"
            scopeValues.append(.text(terminal))
        }
        if let merchant = filter.merchant {
            scope += " AND merchant_id = ?"
            scopeValues.append(.text(merchant))
        }
        return try db.query(
            "SELECT * FROM transactions WHERE created_at >= ? AND created_at <= ?" + scope + filters
                + " ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?",
            [.integer(filter.history.from), .integer(filter.history.to)] + scopeValues + values
                + [.integer(Int64(limit)), .integer(Int64(offset))]
        ).map(TransactionRecord.init)
    }

    /// A transaction of any terminal.
    package func record(id: String) throws -> TransactionRecord? {
        try db.query("SELECT * FROM transactions WHERE id = ?", [.text(id)]).first.map(TransactionRecord.init)
    }

    /// The newest receipt link of a transaction, if one was made.
    package func latestReceipt(transaction: String) throws -> String? {
        try db.query(
            "SELECT id FROM receipts WHERE transaction_id = ? ORDER BY created_at DESC LIMIT 1", [.text(transaction)]
        ).first.map { try $0["id"] }
    }

    /// ` AND status IN (…) …` for the lists given; the rollup tables name these columns alike.
    private static func filterClause(_ filter: HistoryFilter) -> (String, [DatabaseValue]) {
        var clause = ""
        var values: [DatabaseValue] = []
        for (column, list) in [("status", filter.statuses), ("type", filter.types), ("payment_method", filter.paymentMethods)]
        where !list.isEmpty {
            clause += " AND \(column) IN (" + Array(repeating: "?", count: list.count).joined(separator: ", ") + ")"
            values += list.map(DatabaseValue.text)
        }
        return (clause, values)
    }

    // MARK: - Statistics

    /// The approved sales (cleared, or refunded later) of a group: their sum and how many.
    package struct Total<Key> {
        package let key: Key
        package let amount: Int
        package let count: Int
    }

    /// Approved sales of one terminal per UTC day (`day`, days since 1970): `amount`, `n`, by day;
    /// its values are ``Rollup/values(terminal:filters:)``.
    package static let dailyStatisticsSQL = statisticsSQL(key: "day") {
        switch $0 {
        case .rows: "created_at / 86400000"
        case .hours: "hour / 24"
        case .days: "day"
        }
    }

    /// Approved sales of one terminal per card brand (`brand`, `UNKNOWN` without a card): `amount`, `n`, by brand.
    package static let brandStatisticsSQL = statisticsSQL(key: "brand") { $0 == .rows ? "COALESCE(card_brand, 'UNKNOWN')" : "card_brand" }

    private static func statisticsSQL(key: String, _ expression: (Rollup.Source) -> String) -> String {
        "SELECT k AS \(key), SUM(amount) AS amount, SUM(n) AS n FROM ("
            + Rollup.union(where: " AND type = 'AUTH' AND status IN ('CLEARED', 'REFUNDED')") {
                "SELECT \(expression($0)) AS k, amount, \($0 == .rows ? "1" : "n") AS n"
            } + ") AS parts GROUP BY k HAVING SUM(n) > 0 ORDER BY k"
    }

    /// Approved sales of `[from, to]` per UTC day (days since 1970), in day order.
    package func dailyTotals(terminal: String, from: Int64, to: Int64) throws -> [Total<Int64>] {
        try db.query(Self.dailyStatisticsSQL, Rollup(from: from, to: to).values(terminal: terminal)).map { row in
            Total(key: try row["day"], amount: try row["amount"], count: try row["n"])
        }
    }

    /// Approved sales of `[from, to]` per card brand, in brand order.
    package func brandTotals(terminal: String, from: Int64, to: Int64) throws -> [Total<String>] {
        try db.query(Self.brandStatisticsSQL, Rollup(from: from, to: to).values(terminal: terminal)).map { row in
            Total(key: try row["brand"], amount: try row["amount"], count: try row["n"])
        }
    }

    // MARK: - Card reads

    /// Spends the read id of an opened card or PIN payload.
    ///
    /// A read id is spent once, ever, whatever its readAt: a payload sealed again with the same id
    /// and another readAt is the same read (schema 11). `readAt` is kept beside it for the record.
    ///
    /// - Returns: false when it was spent before (a replay).
    package func spendRead(readId: String, readAt: Int64, at now: Int64) throws -> Bool {
        try db.run(
            "INSERT INTO card_reads (read_id, read_at, used_at) VALUES (?1, ?2, ?3) ON CONFLICT (read_id) DO NOTHING",
            [.text(readId), .integer(readAt), .integer(now)])
        return db.changes == 1
    }

    // MARK: - Idempotency keys

    /// The first successful answer to a request sent with an `Idempotency-Key`.
    package struct KeptAnswer {
        package let requestHash: String
        package let status: Int
        package let body: [UInt8]

        package init(requestHash: String, status: Int, body: [UInt8]) {
            (self.requestHash, self.status, self.body) = (requestHash, status, body)
        }
    }

    package func answer(terminal: String, key: String) throws -> KeptAnswer? {
        try db.query("SELECT * FROM idempotency_keys WHERE terminal_id = ? AND key = ?", [.text(terminal), .text(key)]).first.map { row in
            KeptAnswer(requestHash: try row["request_hash"], status: Int(try row["status"] as Int64), body: try row["body"])
        }
    }

    package func keep(_ answer: KeptAnswer, terminal: String, key: String, at now: Int64) throws {
        try db.run(
            "INSERT INTO idempotency_keys (terminal_id, key, request_hash, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            [.text(terminal), .text(key), .text(answer.requestHash), .integer(Int64(answer.status)), .blob(answer.body), .integer(now)])
    }

    // MARK: - Checkouts

    /// What a merchant said a sale must be.
    package struct Checkout {
        package let amount: Int
        package let tipAmount: Int?
        package let currency: String
        package let reference: String?
        package let expiresAt: Int64
        /// The sale that used it.
        package let transactionID: String?
    }

    package func addCheckout(
        _ id: String, merchant: String, terminal: String, amount: Int, tipAmount: Int?, currency: String, reference: String?,
        at now: Int64, expiresAt: Int64
    ) throws {
        try db.run(
            """
            INSERT INTO checkouts (id, merchant_id, terminal_id, amount, tip_amount, currency, reference, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(id), .text(merchant), .text(terminal), .integer(Int64(amount)), tipAmount.map { .integer(Int64($0)) } ?? .null,
             .text(currency), reference.map(DatabaseValue.text) ?? .null, .integer(now), .integer(expiresAt)])
    }

    package func checkout(_ id: String, terminal: String) throws -> Checkout? {
        try db.query("SELECT * FROM checkouts WHERE id = ? AND terminal_id = ?", [.text(id), .text(terminal)]).first.map { row in
            Checkout(
                amount: try row["amount"], tipAmount: try row["tip_amount"], currency: try row["currency"], reference: try row["reference"],
                expiresAt: try row["expires_at"], transactionID: try row["transaction_id"])
        }
    }

    package func useCheckout(_ id: String, transaction: String) throws {
        try db.run("UPDATE checkouts SET transaction_id = ? WHERE id = ?", [.text(transaction), .text(id)])
    }

    // MARK: - Receipts

    package func addReceipt(_ id: String, transaction: String, at now: Int64) throws {
        try db.run("INSERT INTO receipts (id, transaction_id, created_at) VALUES (?, ?, ?)", [.text(id), .text(transaction), .integer(now)])
    }

    /// The transaction a receipt shows.
    package func record(receipt id: String) throws -> TransactionRecord? {
        try db.query("SELECT t.* FROM receipts r JOIN transactions t ON t.id = r.transaction_id WHERE r.id = ?", [.text(id)]).first
            .map(TransactionRecord.init)
    }
}
