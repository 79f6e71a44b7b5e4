import CardPayload
import Clocks
import Foundation
import SandboxCore
import SandboxCrypto
import SandboxHTTP
import SandboxStore

/// Last transaction, history, count, details, statistics and receipts.
extension Payments {
    /// The seed's TransactionDetail of a stored transaction, as the terminal sees it now.
    func detail(_ db: Connection, _ record: TransactionRecord, terminal: TerminalInfo, at now: Int64) throws -> TransactionDetail {
        let cancellable = try isCancellable(db, record, terminal: terminal, at: now)
        let refundable =
            record.type == .auth && record.status == .cleared && !cancellable && terminal.isRefundAvailable
        func currency(_ code: String?) -> TerminalCurrency? {
            code.flatMap { Currency(code: $0) }.map(TerminalCurrency.init)
        }
        return TransactionDetail(
            transactionId: record.id, transactionStatus: record.status, transactionType: record.type,
            transactionAmount: record.amount, transactionDate: Self.date(record.createdAt), merchantId: record.merchantID,
            terminalId: record.terminalID, cancellable: cancellable, authId: record.authID ?? "",
            cardNumber: record.maskedPAN ?? "", paymentMethod: record.paymentMethod, tipAmount: record.tipAmount,
            applicationLabel: record.applicationLabel, cardType: record.cardBrand, expiryDate: record.cardExpiry.flatMap(Self.expiryDate),
            aid: record.aid, responseCode: record.responseCode, responseMsg: record.responseMessage, cid: record.cid,
            applicationCryptogram: record.cryptogram, externalID: record.reference, retrievalRefNum: record.rrn,
            refundedTransactionId: record.originalID, refundedDate: record.refundedAt.map(Self.date),
            refundedMaskedPan: record.refundedMaskedPAN, isReversalAvailable: terminal.isReversalAvailable,
            refundable: refundable, ref1: record.reference, ref2: nil, currency: currency(record.currency),
            dccStatus: record.dccStatus, dccAmount: record.dccAmount, dccCurrency: currency(record.dccCurrency),
            dccExchangeRate: record.dccRate, dccMarkup: record.dccMarkup, dccEcbIndicator: record.dccECB,
            transactionRetry: record.retries)
    }

    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// The last day of a card's expiry month (`YYMM`), at midnight UTC.
    static func expiryDate(_ expiry: String) -> Date? {
        CardData.validityEnd(of: expiry).map { $0.addingTimeInterval(-86_400) }
    }

    /// Runs `body` after in-flight deadlines of the terminal were applied, so reads see TIMEOUTs.
    func reading<T>(_ session: Lifecycle.CurrentSession, _ body: (Connection, TerminalInfo, Int64) throws -> T) throws -> T {
        let terminal = try terminalInfo(session)
        let now = now()
        try store.write { db in try expireStale(db, terminal: terminal.terminalId, at: now) }
        return try store.read { db in try body(db, terminal, now) }
    }

    func detail(_ session: Lifecycle.CurrentSession, _ record: TransactionRecord) throws -> TransactionDetail {
        try reading(session) { db, terminal, now in
            // Re-read: a deadline may have moved it on since the write that returned it.
            let fresh = try self.record(db, id: record.id, terminal: terminal.terminalId)
            return try detail(db, fresh, terminal: terminal, at: now)
        }
    }

    func last(_ session: Lifecycle.CurrentSession) throws -> TransactionDetail {
        try reading(session) { db, terminal, now in
            // The later of the last sale and the last refund: each one seek in transactions_latest_by_type.
            guard let row = try db.query(
                """
                SELECT * FROM (SELECT * FROM transactions WHERE terminal_id = ?1 AND type = 'AUTH' ORDER BY seq DESC LIMIT 1)
                UNION ALL
                SELECT * FROM (SELECT * FROM transactions WHERE terminal_id = ?1 AND type = 'REFUND' ORDER BY seq DESC LIMIT 1)
                ORDER BY seq DESC LIMIT 1
                """, [.text(terminal.terminalId)]
            ).first else { throw PaymentError.transactionNotFound }
            return try detail(db, try TransactionRecord(row), terminal: terminal, at: now)
        }
    }

    /// fetchTransactionDetails: by id or by a reference unique on this terminal.
    func details(_ session: Lifecycle.CurrentSession, id: String?, reference: String?, terminalID: String?) throws -> TransactionDetail {
        try reading(session) { db, terminal, now in
            if let terminalID, terminalID != terminal.terminalId { throw PaymentError.transactionNotFound }
            if let id {
                return try detail(db, try record(db, id: id, terminal: terminal.terminalId), terminal: terminal, at: now)
            }
            guard let reference else {
                throw PaymentError.invalidRequest("Give a transactionId or a reference.", field: "transactionId")
            }
            let rows = try db.query(
                "SELECT * FROM transactions WHERE reference = ? AND terminal_id = ? LIMIT 2", [.text(reference), .text(terminal.terminalId)])
            guard let row = rows.first else { throw PaymentError.transactionNotFound }
            guard rows.count == 1 else {
                throw PaymentError.referenceNotUnique
            }
            return try detail(db, try TransactionRecord(row), terminal: terminal, at: now)
        }
    }

    // MARK: - History and count

    struct HistoryFilter: Sendable {
        var page = 1
        var itemsPerPage = 20
        var from: Int64 = 0
        var to: Int64 = .max
        var statuses: [String] = []
        var types: [String] = []
        var paymentMethods: [String] = []

        /// Reads `page`, `itemsPerPage`, `dateFrom`, `dateTo`, `status`, `type`, `paymentMethod`
        /// (lists comma-separated; an empty list is no filter).
        init(query: [String: String]) throws(PaymentError) {
            func integer(_ name: String, _ range: ClosedRange<Int>, default value: Int) throws(PaymentError) -> Int {
                guard let text = query[name] else { return value }
                guard let number = Int(text), range.contains(number) else {
                    throw .invalidRequest("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).", field: "query.\(name)")
                }
                return number
            }
            func date(_ name: String) throws(PaymentError) -> Int64? {
                guard let text = query[name], !text.isEmpty else { return nil }
                guard let date = Wire.parse(text) else {
                    throw .invalidRequest("\(name) must be an ISO 8601 date and time, e.g. 2026-11-29T10:00:00.0%2B01:00 (encode the + in a URL).", field: "query.\(name)")
                }
                return date.millisecondsSince1970
            }
            func list<T: RawRepresentable>(_ name: String, _ type: T.Type) throws(PaymentError) -> [String] where T.RawValue == String {
                let values = (query[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                for value in values where T(rawValue: value) == nil {
                    throw .invalidRequest("\(name) has an unknown value \(value).", field: "query.\(name)")
                }
                return values
            }
            page = try integer("page", 1...1_000_000, default: 1)
            itemsPerPage = try integer("itemsPerPage", 1...200, default: 20)
            from = try date("dateFrom") ?? 0
            to = try date("dateTo") ?? .max
            statuses = try list("status", TransactionStatus.self)
            types = try list("type", TransactionType.self)
            paymentMethods = try list("paymentMethod", PaymentMethod.self)
        }

        func whereClause(terminal: String) -> (String, [DatabaseValue]) {
            let (filters, values) = filterClause
            return (
                "terminal_id = ? AND created_at >= ? AND created_at <= ?" + filters, [.text(terminal), .integer(from), .integer(to)] + values
            )
        }

        /// ` AND status IN (…) …` for the lists given; the rollup tables name these columns alike.
        var filterClause: (String, [DatabaseValue]) {
            var clause = ""
            var values: [DatabaseValue] = []
            for (column, list) in [("status", statuses), ("type", types), ("payment_method", paymentMethods)] where !list.isEmpty {
                clause += " AND \(column) IN (" + Array(repeating: "?", count: list.count).joined(separator: ", ") + ")"
                values += list.map(DatabaseValue.text)
            }
            return (clause, values)
        }

        /// How many transactions of `terminal` match: whole hours and days from the rollups, the rest from rows.
        func count(_ db: Connection, terminal: String) throws -> Int {
            let (filters, values) = filterClause
            let cuts = Rollup(from: from, to: to)
            let sql =
                "SELECT COALESCE(SUM(n), 0) AS n FROM ("
                + Rollup.union(where: filters) { $0 == .rows ? "SELECT COUNT(*) AS n" : "SELECT SUM(n) AS n" } + ")"
            return try db.query(sql, cuts.values(terminal: terminal, filters: values)).first?["n"] ?? 0
        }
    }

    struct History: Codable, Sendable {
        let items: [TransactionHistoryItem]
        let page: Int
        let itemsPerPage: Int
        let total: Int
    }

    func history(_ session: Lifecycle.CurrentSession, _ filter: HistoryFilter) throws -> History {
        try reading(session) { db, terminal, now in
            let (clause, values) = filter.whereClause(terminal: terminal.terminalId)
            let total = try filter.count(db, terminal: terminal.terminalId)
            let rows = try db.query(
                "SELECT * FROM transactions WHERE " + clause + " ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?",
                values + [.integer(Int64(filter.itemsPerPage)), .integer(Int64((filter.page - 1) * filter.itemsPerPage))])
            let items = try rows.map { row in
                let record = try TransactionRecord(row)
                return TransactionHistoryItem(try detail(db, record, terminal: terminal, at: now), amountRefund: record.refundAmount)
            }
            return History(items: items, page: filter.page, itemsPerPage: filter.itemsPerPage, total: total)
        }
    }

    func count(_ session: Lifecycle.CurrentSession, _ filter: HistoryFilter) throws -> Int {
        try reading(session) { db, terminal, _ in try filter.count(db, terminal: terminal.terminalId) }
    }

    // MARK: - Statistics

    /// Approved sales (cleared, or refunded later) of one terminal per UTC day (`day`, days since
    /// 1970): `amount`, `n`, by day; its values are ``Rollup/values(terminal:filters:)``.
    static let dailyStatisticsSQL = statisticsSQL(key: "day") {
        switch $0 {
        case .rows: "created_at / 86400000"
        case .hours: "hour / 24"
        case .days: "day"
        }
    }

    /// Approved sales of one terminal per card brand (`brand`, `UNKNOWN` without a card): `amount`, `n`, by brand.
    static let brandStatisticsSQL = statisticsSQL(key: "brand") { $0 == .rows ? "COALESCE(card_brand, 'UNKNOWN')" : "card_brand" }

    private static func statisticsSQL(key: String, _ expression: (Rollup.Source) -> String) -> String {
        "SELECT k AS \(key), SUM(amount) AS amount, SUM(n) AS n FROM ("
            + Rollup.union(where: " AND type = 'AUTH' AND status IN ('CLEARED', 'REFUNDED')") {
                "SELECT \(expression($0)) AS k, amount, \($0 == .rows ? "1" : "n") AS n"
            } + ") GROUP BY k HAVING SUM(n) > 0 ORDER BY k"
    }

    /// getTransactionsStatistics: approved sales (cleared, or refunded later) summed per UTC day or per brand.
    func statistics(_ session: Lifecycle.CurrentSession, from: Int64, to: Int64, type: StatisticsType) throws -> [TransactionsStatistics] {
        try reading(session) { db, terminal, _ in
            let sql = type == .daily ? Self.dailyStatisticsSQL : Self.brandStatisticsSQL
            let rows = try db.query(sql, Rollup(from: from, to: to).values(terminal: terminal.terminalId))
            switch type {
            case .daily:
                return try rows.map { row in
                    let day: Int64 = try row["day"]
                    let start = day * Rollup.day
                    return TransactionsStatistics(
                        description: String(Wire.time(start).prefix(10)),
                        items: [
                            TransactionsStatisticsItem(
                                fromDate: Wire.time(start), toDate: Wire.time(start + Rollup.day - 1), amount: try row["amount"],
                                count: try row["n"])
                        ])
                }
            case .brand:
                return try rows.map { row in
                    TransactionsStatistics(
                        description: try row["brand"],
                        items: [
                            TransactionsStatisticsItem(
                                fromDate: Wire.time(from), toDate: Wire.time(min(to, 253_402_300_799_000)), amount: try row["amount"],
                                count: try row["n"])
                        ])
                }
            }
        }
    }

    // MARK: - Receipts

    struct ReceiptConfirmation: Codable, Sendable {
        let status: String
        let url: String?
    }

    /// getDigitalReceipt: a QR URL of the receipt page, or the receipt sent to the mailbox.
    func receipt(_ session: Lifecycle.CurrentSession, transaction id: String, type: String, email: String?, baseURL: String) throws
        -> ReceiptConfirmation
    {
        let now = now()
        return try store.write { db in
            let record = try record(db, id: id, terminal: session.terminal.id)
            let receipt = Hex.encode(random.bytes(count: 16))
            try db.run(
                "INSERT INTO receipts (id, transaction_id, created_at) VALUES (?, ?, ?)",
                [.text(receipt), .text(record.id), .integer(now)])
            let url = baseURL + "/receipts/" + receipt
            switch type {
            case "QR":
                return ReceiptConfirmation(status: "GENERATED", url: url)
            case "EMAIL":
                guard let email else { throw PaymentError.invalidRequest("An e-mail receipt needs an email.", field: "email") }
                let merchant = lifecycle.directory.merchants[record.merchantID]
                try lifecycle.mail(
                    db, to: email, subject: "Your receipt from \(merchant?.name ?? record.merchantID): \(record.id)",
                    body: ReceiptPage.text(record, merchant: merchant, region: region) + "\nView it online: \(url)\n", at: now)
                return ReceiptConfirmation(status: "SENT", url: nil)
            default:
                throw PaymentError.invalidRequest("receiptType must be QR or EMAIL.", field: "receiptType")
            }
        }
    }

    /// The HTML page a receipt URL shows (no credential: the id is the secret, as in a real receipt link).
    func receiptPage(_ id: String) throws -> String {
        try store.read { db in
            guard let row = try db.query(
                "SELECT t.* FROM receipts r JOIN transactions t ON t.id = r.transaction_id WHERE r.id = ?", [.text(id)]
            ).first else { throw PaymentError.receiptNotFound }
            let record = try TransactionRecord(row)
            return ReceiptPage.html(record, merchant: lifecycle.directory.merchants[record.merchantID], region: region)
        }
    }
}

// MARK: - Rollups

/// A date range cut into the parts count and statistics read: the whole UTC days and hours from
/// the rollups (`transaction_days`, `transaction_hours`: migration 6, kept by triggers on every
/// write of `transactions`), and the part of an hour at either end from the rows themselves.
///
/// Ninety days over a million rows is then about 3,000 day totals, at most 46 hours of totals and
/// two partial hours of rows, instead of every row (bench/history.sh). The parts, in SQL order:
///
/// ```
/// from ─ rows ─┤ hours ─┤ days … days ├─ hours ├─ rows ─ to
/// ```
///
/// Each is a half-open range in its table's unit (milliseconds, hour or day number since 1970);
/// an empty part is `0..<0`, so the SQL text stays the same for every range.
struct Rollup: Sendable {
    /// Where a part is read.
    enum Source: Sendable {
        case rows, hours, days

        var table: String {
            switch self {
            case .rows: "transactions"
            case .hours: "transaction_hours"
            case .days: "transaction_days"
            }
        }

        var column: String {
            switch self {
            case .rows: "created_at"
            case .hours: "hour"
            case .days: "day"
            }
        }
    }

    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000
    /// 9999-12-31T23:59:59.999Z, the latest instant a range reaches (an open `dateTo` is `Int64.max`).
    static let latest: Int64 = 253_402_300_799_999
    static let sources: [Source] = [.rows, .hours, .days, .hours, .rows]

    /// The parts of ``sources``, in that order.
    let parts: [Range<Int64>]

    /// The parts of `[from, to]` (milliseconds, both included).
    ///
    /// Times before 1970 are cut off: the clock never gives one, and the day and hour numbers of
    /// the rollups round toward zero.
    init(from: Int64, to: Int64) {
        let start = max(from, 0)
        let end = min(to, Self.latest) + 1
        let empty: Range<Int64> = 0..<0
        guard start < end else {
            parts = Array(repeating: empty, count: 5)
            return
        }
        // Whole hours [firstHour, endHour), whole days [firstDay, endDay) within them.
        let firstHour = (start + Self.hour - 1) / Self.hour
        let endHour = end / Self.hour
        guard firstHour < endHour else {
            parts = [start..<end, empty, empty, empty, empty]
            return
        }
        let firstDay = (firstHour + 23) / 24
        let endDay = endHour / 24
        let rows = (start..<firstHour * Self.hour, endHour * Self.hour..<end)
        parts =
            firstDay < endDay
            ? [rows.0, firstHour..<firstDay * 24, firstDay..<endDay, endDay * 24..<endHour, rows.1]
            : [rows.0, firstHour..<endHour, empty, empty, rows.1]
    }

    /// One `SELECT` per part joined by `UNION ALL`: `select(source)` gives its columns, every part
    /// is of one terminal within its range, and `filters` (` AND …`) applies to each.
    static func union(where filters: String, _ select: (Source) -> String) -> String {
        sources.map { source in
            select(source) + " FROM \(source.table) WHERE terminal_id = ? AND \(source.column) >= ? AND \(source.column) < ?" + filters
        }.joined(separator: " UNION ALL ")
    }

    /// The values of ``union(where:_:)``: for each part the terminal, its range, then `filters`' values.
    func values(terminal: String, filters: [DatabaseValue] = []) -> [DatabaseValue] {
        parts.flatMap { part in [.text(terminal), .integer(part.lowerBound), .integer(part.upperBound)] + filters }
    }
}
