import HostStorage
import Foundation
import SandboxCore
import SandboxStore
import SandboxWire

/// The APM payments of one host, QR wallet and BLIK (docs/qr-payments.md, docs/blik.md): the order
/// made at the wallet, its poll, the app's cancel, refunds, and the wallet's notifications.
///
/// A QR payment is a row of `transactions` (payment method QRCODE, its brand as the card brand),
/// so the card rules' busy rule, idempotency keys, webhooks and reads hold for it as they are.
/// Every change is one write transaction with its webhook and the calls it owes the wallet
/// (``WalletCalls``), so a cancel and a payment that race are decided by the database: the one
/// that commits first wins, the other finds the order final.
package struct APMPayments: Sendable {
    package let payments: CardPayments
    package let wallet: WalletClient

    package var store: Store { payments.store }
    package var outbox: Outbox { payments.outbox }
    package var region: Region { payments.region }

    /// The terminal's `apmTimeout`, `apmPulling` and `apmRefundTimeout` when its DynamicProperties leave them out.
    package static let defaultTimeout = 300
    package static let defaultPulling = 5
    package static let defaultRefundTimeout = 60

    package static func timeout(_ terminal: TerminalInfo) -> Int { positive(terminal.dynamicProperties.apmTimeout) ?? defaultTimeout }
    package static func refundTimeout(_ terminal: TerminalInfo) -> Int {
        positive(terminal.dynamicProperties.apmRefundTimeout) ?? defaultRefundTimeout
    }
    private static func positive(_ value: Int?) -> Int? { value.flatMap { $0 > 0 ? $0 : nil } }

    // MARK: - Create

    /// What the first write of a new payment found: a kept answer to a repeated key, or the new row.
    package enum Started {
        case replay(PaymentAnswer)
        case made(TransactionRecord)
    }

    /// doQRPayment: checks the payment as a card sale, holds the terminal with a NEW row, makes the
    /// order at the wallet, and answers the payment with the QR.
    ///
    /// The row is written before the wallet is asked, so the busy rule and the idempotency key
    /// hold while the wallet answers; when the wallet does not answer, the row is removed again
    /// (nothing stays in flight) and the order is closed at the wallet in case it was made after all.
    package func create(_ session: Lifecycle.CurrentSession, _ body: APMBodies.Payment, key: CardPayments.IdempotencyKey?) throws -> PaymentAnswer {
        try create(on: try payments.terminalInfo(session), body, key: key).answer
    }

    /// What a QR payment must meet before it is made: QR payments on, the card sale's rules word for
    /// word (amount, tip, reference, limit, the terminal's currency), an active brand. Answers the brand.
    package func checked(_ terminal: TerminalInfo, _ body: APMBodies.Payment) throws(PaymentError) -> APMConfig {
        guard terminal.apmEnabled else { throw PaymentError.apmNotEnabled }
        try PaymentValidation.sale(
            SandboxWire.SaleRequest(
                currency: terminal.currency.code, requestedAmount: body.requestedAmount, tipAmount: body.tipAmount,
                reference: body.reference, checkoutId: nil, countryCode: nil, cardPayload: nil, readerOutcome: nil, callbackUrl: nil),
            terminal: terminal)
        let active = terminal.apmConfig.filter(\.isActive)
        guard let brand = active.first(where: { $0.brandName == body.brand }) else {
            throw PaymentError.apmBrandUnavailable(body.brand.rawValue, active: active.map(\.brandName.rawValue))
        }
        return brand
    }

    /// doQRPayment on `terminal` (a device's session's, or a seed's): the answer, and the payment
    /// made with its pay URL at the wallet (nil when a repeated key was answered again).
    package func create(
        on terminal: TerminalInfo, _ body: APMBodies.Payment, key: CardPayments.IdempotencyKey?
    ) throws -> (answer: PaymentAnswer, made: (id: String, payUrl: String)?) {
        let brand = try checked(terminal, body)
        let timeout = Self.timeout(terminal)
        let now = payments.now()
        let made: TransactionRecord
        switch try start(terminal, key: key, at: now, {
            $0.paymentMethod = .QRCODE
            $0.cardBrand = brand.brandName.rawValue
            $0.apmBrandFullName = brand.brandFullName
            $0.amount = body.requestedAmount
            $0.tipAmount = body.tipAmount
            $0.reference = body.reference
            $0.apmExpiresAt = now + Int64(timeout) * 1000
        }) {
        case .replay(let response): return (response, nil)
        case .made(let record): made = record
        }
        let order: WalletProvider.Order
        do {
            order = try wallet.createOrder(
                WalletProvider.OrderRequest(
                    orderId: made.id, region: region.id, merchantId: terminal.merchantId, merchantName: terminal.merchantName,
                    terminalId: terminal.terminalId, amount: made.amount, currency: made.currency, brand: brand.brandName.rawValue,
                    brandFullName: brand.brandFullName, reference: made.reference, expiresInSeconds: timeout))
        } catch {
            try abandon(made, closing: true, at: now)
            throw error
        }
        _ = try? QRImage.svg(order.payUrl)  // drawn here, not on the writer's thread: the answer's image is then looked up
        return (try finish(made, terminal: terminal, key: key, at: now) { $0.apmQRCode = order.payUrl }, (made.id, order.payUrl))
    }

    /// The first write of a new APM payment: a passed deadline applied, a repeated key answered
    /// again, the busy rule, and the NEW row (`fill` sets its method, brand, amounts and deadline).
    ///
    /// Answered once committed, not synced: the device hears nothing until ``finish(_:terminal:key:at:_:)``,
    /// whose sync covers this commit too (the WAL is synced in order). A crash of the process keeps
    /// the row; only a crash of the machine in the moment before that sync could lose it, and then
    /// the device never got the order either.
    package func start(
        _ terminal: TerminalInfo, key: CardPayments.IdempotencyKey?, at now: Int64, _ fill: (inout TransactionRecord) -> Void
    ) throws -> Started {
        try store.write(.committed) { db -> Started in
            try payments.expireStale(db, terminal: terminal.terminalId, at: now)
            if let kept = try payments.kept(db, key, terminal: terminal.terminalId) { return .replay(kept) }
            guard try !payments.inFlight(db, terminal: terminal.terminalId) else { throw PaymentError.terminalBusy }
            var record = TransactionRecord(
                id: payments.transactionID(at: now), terminalID: terminal.terminalId, merchantID: terminal.merchantId, type: .AUTH,
                status: .NEW, amount: 0, tipAmount: nil, currency: terminal.currency.code, reference: nil, at: now)
            fill(&record)
            record.pendingUntil = record.apmExpiresAt
            try record.save(db, at: now)
            return .made(record)
        }
    }

    /// Removes the row of a payment the wallet did not make (nothing stays in flight), or one a
    /// refused seed made; `closing` also closes the order at the wallet, in case it was made (and
    /// only answered too late).
    package func abandon(_ made: TransactionRecord, closing: Bool, at now: Int64) throws {
        try abandon(id: made.id, closing: closing, at: now)
    }

    package func abandon(id: String, closing: Bool, at now: Int64) throws {
        try store.write { db in
            try db.apm.delete(id: id)
            if closing, wallet.baseURL != nil { try WalletCalls.close(db, order: id, reason: "cancelled", at: now) }
        }
    }

    /// The last write of a new APM payment, once the wallet made the order: `change` applied, the
    /// 201 answer kept under the idempotency key.
    package func finish(
        _ made: TransactionRecord, terminal: TerminalInfo, key: CardPayments.IdempotencyKey?, at now: Int64,
        _ change: (inout TransactionRecord) -> Void
    ) throws -> PaymentAnswer {
        // The answer (with its QR image, several kB of JSON) is encoded on the writer's thread only
        // when it is kept under a key; otherwise here, after the commit: every other write of the
        // host, a customer's approval among them, waits while the writer encodes.
        let written = try store.write { db -> (answer: APMTransaction, kept: PaymentAnswer?) in
            var record = try payments.record(db, id: made.id, terminal: terminal.terminalId)
            change(&record)
            try record.save(db, at: now)
            let answer = try transaction(db, record, terminal: terminal)
            guard key != nil else { return (answer, nil) }
            let encoded = try PaymentAnswer.encoded(answer, status: 201)
            try payments.keep(db, key, encoded, terminal: terminal.terminalId, at: now)
            return (answer, encoded)
        }
        return written.kept ?? .fresh(written.answer, status: 201)
    }

    // MARK: - Poll

    /// The terminal's QR transaction `id` as it is now (a passed deadline applied first).
    package func transaction(_ session: Lifecycle.CurrentSession, id: String) throws -> APMTransaction {
        try payments.reading(session) { db, terminal, _ in
            try transaction(db, try record(db, id: id, terminal: terminal), terminal: terminal)
        }
    }

    /// A QR transaction of the terminal: a card transaction's id is not one.
    package func record(_ db: Connection, id: String, terminal: TerminalInfo) throws -> TransactionRecord {
        let record = try payments.record(db, id: id, terminal: terminal.terminalId)
        guard record.paymentMethod != .CARD else { throw PaymentError.transactionNotFound }
        return record
    }

    /// The wire's APMTransaction of a stored QR row. The QR image is drawn while the order is open.
    package func transaction(_ db: Connection, _ record: TransactionRecord, terminal: TerminalInfo) throws -> APMTransaction {
        let currency = Currency(code: record.currency).map(TerminalCurrency.init) ?? terminal.currency
        let open = record.type == .AUTH && TransactionStateMachine.isInFlight(record.status)
        var refundable: Bool?
        if record.type == .AUTH {
            // Only a CLEARED payment can be refunded: the others need no sum of refunds.
            refundable = try record.status == .CLEARED && terminal.isRefundAvailable
                && db.apm.refundedOrPending(payment: record.id) < record.amount
        }
        return APMTransaction(
            transactionId: record.id, transactionStatus: record.status, transactionType: record.type, paymentMethod: record.paymentMethod,
            brand: record.cardBrand.map(APMPaymentData.APMBrand.init(rawValue:)), brandFullName: record.apmBrandFullName,
            transactionAmount: record.amount, tipAmount: record.tipAmount, currency: currency, transactionDate: CardPayments.date(record.createdAt),
            expiresAt: record.apmExpiresAt.map(CardPayments.date), merchantId: record.merchantID, terminalId: record.terminalID,
            externalID: record.reference, qrCode: record.apmQRCode,
            qrCodeSVG: open ? try record.apmQRCode.map { try QRImage.svg($0) } : nil,
            providerReference: record.apmProviderReference, responseCode: record.responseCode, responseMsg: record.responseMessage,
            declineReason: record.apmDeclineReason, refundedTransactionId: record.originalID, refundable: refundable)
    }

    // MARK: - Cancel

    /// cancelQRPayment: ends a pending order as USER_CANCELLED and closes it at the wallet.
    ///
    /// - Throws: `apm_already_paid` once the customer paid, `apm_order_closed` once it is final
    ///   otherwise, `transaction_wrong_state` for a refund.
    package func cancel(_ session: Lifecycle.CurrentSession, id: String, reason: String?) throws -> APMTransaction {
        let terminal = try payments.terminalInfo(session)
        let now = payments.now()
        return try store.write { db in
            try payments.expireStale(db, terminal: terminal.terminalId, at: now)
            var record = try record(db, id: id, terminal: terminal)
            guard record.type == .AUTH else { throw PaymentError.wrongState("A refund (QR or BLIK) cannot be cancelled.") }
            switch record.status {
            case .NEW, .ONGOING:
                record.moveAPM(to: .USER_CANCELLED, by: .cancelled, at: now)
                let why = reason.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
                record.responseMessage = why.isEmpty ? "Cancelled by the user" : "Cancelled by the user: \(why.prefix(200))"
                record.eventType = "payment.canceled"
                try record.save(db, at: now)
                try outbox.record(db, record, at: now)
                try WalletCalls.close(db, order: record.id, reason: "cancelled", at: now)
            case .CLEARED, .REFUNDED:
                throw PaymentError.apmAlreadyPaid
            default:
                throw PaymentError.apmOrderClosed(record.status)
            }
            return try transaction(db, record, terminal: terminal)
        }
    }

    // MARK: - Deadlines

    /// Applies every QR deadline that passed, on every terminal: the order's TIMEOUT with its
    /// webhook and the close call, with nobody polling (after a clock move, and every second).
    ///
    /// - Returns: how many transactions it timed out.
    @discardableResult
    package func sweep() throws -> Int {
        let now = payments.now()
        // A read first: the tick runs every second, and most seconds nothing is due.
        guard try !store.read({ db in try db.apm.expired(at: now) }).isEmpty else { return 0 }
        return try store.write { db in
            let due = try db.apm.expired(at: now)
            try outbox.timeOut(db, due, message: nil, at: now)
            return due.count
        }
    }

    package init(payments: CardPayments, wallet: WalletClient) {
        self.payments = payments
        self.wallet = wallet
    }
}
