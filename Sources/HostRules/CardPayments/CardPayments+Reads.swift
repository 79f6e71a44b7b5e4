import HostStorage
import CardPayload
import SandboxTime
import Foundation
import SandboxCore
import SandboxCrypto
import SandboxStore
import SandboxWire

/// Last transaction, history, count, details, statistics and receipts.
extension CardPayments {
    /// The seed's TransactionDetail of a stored transaction, as the terminal sees it now.
    package func detail(_ db: Connection, _ record: TransactionRecord, terminal: TerminalInfo, at now: Int64) throws -> TransactionDetail {
        let cancellable = try isCancellable(db, record, terminal: terminal, at: now)
        var refundable =
            TransactionStateMachine.isRefundable(record.type, record.status) && !cancellable && terminal.isRefundAvailable
        // A QR payment takes several partial refunds: refundable while some of it is left.
        if refundable, record.paymentMethod != .CARD {
            refundable = try db.apm.refundedOrPending(payment: record.id) < record.amount
        }
        func currency(_ code: String?) -> TerminalCurrency? {
            code.flatMap { Currency(code: $0) }.map(TerminalCurrency.init)
        }
        return TransactionDetail(
            transactionId: record.id, transactionStatus: record.status, transactionType: record.type,
            transactionAmount: record.amount, tipAmount: record.tipAmount,
            transactionDate: Self.date(record.createdAt), merchantId: record.merchantID, terminalId: record.terminalID,
            cancellable: cancellable, applicationLabel: record.applicationLabel, cardType: record.cardBrand,
            expiryDate: record.cardExpiry.flatMap(Self.expiryDate), authId: record.authID ?? record.apmProviderReference ?? "", AID: record.aid,
            cardNumber: record.maskedPAN ?? "", responseCode: record.responseCode, responseMsg: record.responseMessage,
            CID: record.cid, applicationCryptogram: record.cryptogram, externalID: record.reference,
            retrievalRefNum: record.rrn, refundedTransactionId: record.originalID,
            refundedDate: record.refundedAt.map(Self.date), refundedMaskedPan: record.refundedMaskedPAN,
            isReversalAvailable: terminal.isReversalAvailable && record.paymentMethod == .CARD, paymentMethod: record.paymentMethod,
            refundable: refundable, ref1: record.reference, ref2: nil, currency: currency(record.currency),
            dccStatus: record.dccStatus, dccAmount: record.dccAmount, dccCurrency: currency(record.dccCurrency),
            dccExchangeRate: record.dccRate, dccMarkup: record.dccMarkup, dccEcbIndicator: record.dccECB,
            transactionRetry: record.retries)
    }

    package static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// The last day of a card's expiry month (`YYMM`), at midnight UTC.
    package static func expiryDate(_ expiry: String) -> Date? {
        CardData.validityEnd(of: expiry).map { $0.addingTimeInterval(-86_400) }
    }

    /// Runs `body` after in-flight deadlines of the terminal were applied, so reads see TIMEOUTs.
    ///
    /// Most reads find no deadline passed: they are one read. A read that finds one applies it in
    /// a write (a device's poll is what times a payment out when nobody else does), then reads again.
    package func reading<T>(_ session: Lifecycle.CurrentSession, _ body: (Connection, TerminalInfo, Int64) throws -> T) throws -> T {
        let terminal = try terminalInfo(session)
        let now = now()
        let first = try store.read { db -> T? in
            guard try !db.transactions.hasExpired(terminal: terminal.terminalId, at: now) else { return nil }
            return .some(try body(db, terminal, now))
        }
        if let first { return first }
        try store.write { db in try expireStale(db, terminal: terminal.terminalId, at: now) }
        return try store.read { db in try body(db, terminal, now) }
    }

    package func detail(_ session: Lifecycle.CurrentSession, _ record: TransactionRecord) throws -> TransactionDetail {
        try reading(session) { db, terminal, now in
            // Re-read: a deadline may have moved it on since the write that returned it.
            let fresh = try self.record(db, id: record.id, terminal: terminal.terminalId)
            return try detail(db, fresh, terminal: terminal, at: now)
        }
    }

    package func last(_ session: Lifecycle.CurrentSession) throws -> TransactionDetail {
        try reading(session) { db, terminal, now in
            guard let record = try db.transactions.last(terminal: terminal.terminalId) else { throw PaymentError.transactionNotFound }
            return try detail(db, record, terminal: terminal, at: now)
        }
    }

    /// fetchTransactionDetails: by id or by a reference unique on this terminal.
    package func details(_ session: Lifecycle.CurrentSession, id: String?, reference: String?, terminalID: String?) throws -> TransactionDetail {
        try reading(session) { db, terminal, now in
            if let terminalID, terminalID != terminal.terminalId { throw PaymentError.transactionNotFound }
            if let id {
                return try detail(db, try record(db, id: id, terminal: terminal.terminalId), terminal: terminal, at: now)
            }
            guard let reference else {
                throw PaymentError.invalidRequest("Give a transactionId or a reference.", field: "transactionId")
            }
            let records = try db.transactions.records(reference: reference, terminal: terminal.terminalId)
            guard let record = records.first else { throw PaymentError.transactionNotFound }
            guard records.count == 1 else {
                throw PaymentError.referenceNotUnique
            }
            return try detail(db, record, terminal: terminal, at: now)
        }
    }

    // MARK: - History and count

    package typealias HistoryFilter = HostStorage.HistoryFilter

    /// One page of history: the wire's, one type with the SDK's.
    package typealias History = TransactionsHistoryPage

    package func history(_ session: Lifecycle.CurrentSession, _ filter: HistoryFilter) throws -> History {
        try reading(session) { db, terminal, now in
            let total = try db.transactions.count(terminal: terminal.terminalId, filter)
            let items = try db.transactions.history(terminal: terminal.terminalId, filter).map { record in
                TransactionHistoryItem(try detail(db, record, terminal: terminal, at: now), amountRefund: record.refundAmount)
            }
            return History(items: items, page: filter.page, itemsPerPage: filter.itemsPerPage, total: total)
        }
    }

    package func count(_ session: Lifecycle.CurrentSession, _ filter: HistoryFilter) throws -> Int {
        try reading(session) { db, terminal, _ in try db.transactions.count(terminal: terminal.terminalId, filter) }
    }

    // MARK: - Statistics

    /// getTransactionsStatistics: approved sales (cleared, or refunded later) summed per UTC day or per brand.
    package func statistics(_ session: Lifecycle.CurrentSession, from: Int64, to: Int64, type: TransactionsStatisticsType) throws -> [TransactionsStatistics] {
        try reading(session) { db, terminal, _ in try statistics(db, terminals: [terminal.terminalId], from: from, to: to, type: type) }
    }

    /// The statistics of several terminals together (one for the SDK, a merchant's or the region's
    /// for the back office): each group's totals summed over the terminals.
    package func statistics(_ db: Connection, terminals: [String], from: Int64, to: Int64, type: TransactionsStatisticsType) throws
        -> [TransactionsStatistics]
    {
        func merged<Key: Comparable & Hashable>(_ totals: (String) throws -> [TransactionRepository.Total<Key>]) rethrows -> [(Key, Int, Int)] {
            var sums: [Key: (amount: Int, count: Int)] = [:]
            for terminal in terminals {
                for total in try totals(terminal) {
                    sums[total.key, default: (0, 0)].amount += total.amount
                    sums[total.key, default: (0, 0)].count += total.count
                }
            }
            return sums.keys.sorted().map { ($0, sums[$0]!.amount, sums[$0]!.count) }
        }
        switch type {
        case .daily:
            return try merged { try db.transactions.dailyTotals(terminal: $0, from: from, to: to) }.map { day, amount, count in
                let start = day * Rollup.day
                return TransactionsStatistics(
                    description: String(Wire.time(start).prefix(10)),
                    items: [TransactionsStatisticsItem(fromDate: Wire.time(start), toDate: Wire.time(start + Rollup.day - 1), amount: amount, count: count)])
            }
        case .brand:
            return try merged { try db.transactions.brandTotals(terminal: $0, from: from, to: to) }.map { brand, amount, count in
                TransactionsStatistics(
                    description: brand,
                    items: [
                        TransactionsStatisticsItem(
                            fromDate: Wire.time(from), toDate: Wire.time(min(to, 253_402_300_799_000)), amount: amount, count: count)
                    ])
            }
        }
    }

    // MARK: - Receipts

    /// getDigitalReceipt: a QR URL of the receipt page, or the receipt sent to the mailbox.
    package func receipt(_ session: Lifecycle.CurrentSession, transaction id: String, type: String, email: String?, baseURL: String) throws
        -> ReceiptConfirmation
    {
        let now = now()
        return try store.write { db in
            let record = try record(db, id: id, terminal: session.terminal.id)
            let receipt = Hex.encode(random.bytes(count: 16))
            try db.transactions.addReceipt(receipt, transaction: record.id, at: now)
            let url = baseURL + "/receipts/" + receipt
            switch type {
            case "QR":
                return ReceiptConfirmation(status: .GENERATED, url: url)
            case "EMAIL":
                guard let email else { throw PaymentError.invalidRequest("An e-mail receipt needs an email.", field: "email") }
                let merchant = lifecycle.directory.merchants[record.merchantID]
                try lifecycle.mail(
                    db, to: email, subject: "Your receipt from \(merchant?.name ?? record.merchantID): \(record.id)",
                    body: ReceiptPage.text(record, merchant: merchant, region: region) + "\nView it online: \(url)\n", at: now)
                return ReceiptConfirmation(status: .SENT, url: nil)
            default:
                throw PaymentError.invalidRequest("receiptType must be QR or EMAIL.", field: "receiptType")
            }
        }
    }

    /// The HTML page a receipt URL shows (no credential: the id is the secret, as in a real receipt link).
    package func receiptPage(_ id: String) throws -> String {
        try store.read { db in
            guard let record = try db.transactions.record(receipt: id) else {
                throw PaymentError.receiptNotFound
            }
            return ReceiptPage.html(record, merchant: lifecycle.directory.merchants[record.merchantID], region: region)
        }
    }
}
