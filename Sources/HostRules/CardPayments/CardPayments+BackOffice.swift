import HostStorage
import Foundation
import SandboxCore
import SandboxCrypto
import SandboxStore
import SandboxWire

/// What the back office (the portal's Transactions and Statistics pages) reads: every terminal's
/// transactions, filtered and paged, one with its receipt, a CSV export, and statistics of a
/// merchant or the whole region.
extension CardPayments {
    /// One page of the back office's list: `hasMore` says whether a next page has rows.
    package struct BackOfficePage: Encodable, Sendable {
        package let transactions: [TransactionDetail]
        package let page: Int
        package let size: Int
        package let hasMore: Bool
    }

    /// One transaction with the receipt a customer would open (its id: the page is `/receipts/{id}`).
    package struct BackOfficeTransaction: Encodable, Sendable {
        package let transaction: TransactionDetail
        package let receiptId: String
    }

    /// The most rows a CSV export holds.
    package static let exportLimit = 100_000

    package func backOfficeTransactions(_ filter: TransactionRepository.BackOfficeFilter) throws -> BackOfficePage {
        let now = now()
        let size = filter.history.itemsPerPage
        return try store.read { db in
            let records = try db.transactions.backOffice(filter, limit: size + 1, offset: (filter.history.page - 1) * size)
            return BackOfficePage(
                transactions: try records.prefix(size).map { try backOfficeDetail(db, $0, at: now) }, page: filter.history.page,
                size: size, hasMore: records.count > size)
        }
    }

    /// A transaction of any terminal, with a receipt link (the newest, or a new one: only then a write).
    package func backOfficeTransaction(_ id: String) throws -> BackOfficeTransaction {
        let now = now()
        let found = try store.read { db -> BackOfficeTransaction? in
            guard let record = try db.transactions.record(id: id) else { throw PaymentError.transactionNotFound }
            guard let receipt = try db.transactions.latestReceipt(transaction: id) else { return nil }
            return BackOfficeTransaction(transaction: try backOfficeDetail(db, record, at: now), receiptId: receipt)
        }
        if let found { return found }
        return try store.write { db in
            guard let record = try db.transactions.record(id: id) else { throw PaymentError.transactionNotFound }
            let receipt = Hex.encode(random.bytes(count: 16))
            try db.transactions.addReceipt(receipt, transaction: id, at: now)
            return BackOfficeTransaction(transaction: try backOfficeDetail(db, record, at: now), receiptId: receipt)
        }
    }

    /// What the filter shows, as CSV (RFC 4180), the latest first, up to ``exportLimit`` rows.
    package func backOfficeCSV(_ filter: TransactionRepository.BackOfficeFilter) throws -> String {
        let columns = [
            "transactionId", "transactionDate", "merchantId", "terminalId", "transactionType", "transactionStatus", "paymentMethod",
            "transactionAmount", "tipAmount", "currency", "cardType", "cardNumber", "authId", "responseCode", "externalID",
        ]
        let records = try store.read { db in try db.transactions.backOffice(filter, limit: Self.exportLimit, offset: 0) }
        var lines = [columns.joined(separator: ",")]
        for record in records {
            let fields: [String?] = [
                record.id, WireTime.string(milliseconds: record.createdAt), record.merchantID, record.terminalID, record.type.rawValue,
                record.status.rawValue, record.paymentMethod.rawValue, String(record.amount), record.tipAmount.map(String.init),
                record.currency, record.cardBrand, record.maskedPAN, record.authID, record.responseCode, record.reference,
            ]
            lines.append(fields.map { Self.csvField($0 ?? "") }.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// Statistics of a terminal, a merchant's terminals, or every terminal of the host.
    package func backOfficeStatistics(merchant: String?, terminal: String?, from: Int64, to: Int64, type: TransactionsStatisticsType) throws
        -> [TransactionsStatistics]
    {
        let terminals = lifecycle.directory.infos.values
            .filter { (terminal == nil || $0.terminalId == terminal) && (merchant == nil || $0.merchantId == merchant) }
            .map(\.terminalId)
        return try store.read { db in try statistics(db, terminals: terminals.sorted(), from: from, to: to, type: type) }
    }

    /// The detail as the terminal would show it; a transaction of a terminal no longer in the
    /// fixtures shows its stored fields with the terminal's flags off.
    private func backOfficeDetail(_ db: Connection, _ record: TransactionRecord, at now: Int64) throws -> TransactionDetail {
        guard let terminal = lifecycle.directory.infos[record.terminalID] else {
            throw PaymentError.transactionNotFound
        }
        return try detail(db, record, terminal: terminal, at: now)
    }

    /// A CSV field: quoted when it holds a comma, a quote or a line break; a leading `=`, `+`, `-`
    /// or `@` is prefixed with `'`, so a spreadsheet never runs a reference as a formula.
    package static func csvField(_ text: String) -> String {
        var value = text
        if let first = value.first, "=+-@".contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
