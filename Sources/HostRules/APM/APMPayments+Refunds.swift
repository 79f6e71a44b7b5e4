import HostStorage
import SandboxStore
import SandboxWire

/// doQRRefund and doBlikRefund: refunds of a cleared QR (or BLIK) payment, several and partial, up
/// to its amount. The wallet pays each one out asynchronously and says so in a notification; one
/// it leaves unanswered for the terminal's `apmRefundTimeout` ends TIMEOUT, and a later success is
/// refused.
extension APMPayments {
    /// Refunds a payment of `method` (`QRCODE` on the QR route, `BLIK` on the BLIK one): each
    /// route refunds its own payments only.
    package func refund(
        _ session: Lifecycle.CurrentSession, _ body: APMBodies.Refund, key: CardPayments.IdempotencyKey?, method: PaymentMethod = .QRCODE
    ) throws -> PaymentAnswer {
        let terminal = try payments.terminalInfo(session)
        guard terminal.isRefundAvailable else { throw PaymentError.refundNotAllowed }
        try PaymentValidation.amount(body.refundAmount, terminal: terminal, field: "refundAmount")
        try PaymentValidation.reference(body.reference, terminal: terminal)
        let timeout = Self.refundTimeout(terminal)
        let now = payments.now()
        return try store.write { db in
            try payments.expireStale(db, terminal: terminal.terminalId, at: now)
            if let kept = try payments.kept(db, key, terminal: terminal.terminalId) { return kept }
            let original: TransactionRecord
            do {
                original = try payments.record(db, id: body.refundedTransactionId, terminal: terminal.terminalId)
            } catch let error as PaymentError where error.code == .transactionNotFound {
                throw PaymentError(status: error.status, code: error.code, message: error.message, field: "refundedTransactionId")
            }
            guard original.paymentMethod == method else { throw PaymentError.notAPMPayment(method) }
            guard original.type == .AUTH else { throw PaymentError.refundOfRefund }
            if original.status == .REFUNDED { throw PaymentError.alreadyRefunded }
            guard original.status == .CLEARED else { throw PaymentError.notRefundable(status: original.status.rawValue) }
            let left = original.amount - (try db.apm.refundedOrPending(payment: original.id))
            guard body.refundAmount <= left else { throw PaymentError.qrRefundOverAmount(left: left) }
            guard try !payments.inFlight(db, terminal: terminal.terminalId) else { throw PaymentError.terminalBusy }
            // Sent to the wallet at once: the refund waits ONGOING for its answer.
            var record = TransactionRecord(
                id: payments.transactionID(at: now), terminalID: terminal.terminalId, merchantID: terminal.merchantId, type: .REFUND,
                status: .ONGOING, amount: body.refundAmount, tipAmount: nil, currency: original.currency, reference: body.reference, at: now)
            record.paymentMethod = original.paymentMethod
            record.cardBrand = original.cardBrand
            record.apmBrandFullName = original.apmBrandFullName
            record.originalID = original.id
            record.apmExpiresAt = now + Int64(timeout) * 1000
            record.pendingUntil = record.apmExpiresAt
            try record.save(db, at: now)
            try WalletCalls.refund(
                db, WalletProvider.RefundRequest(refundId: record.id, orderId: original.id, amount: record.amount, reference: record.reference),
                at: now)
            let answer = try transaction(db, record, terminal: terminal)
            guard key != nil else { return .fresh(answer, status: 201) }
            let encoded = try PaymentAnswer.encoded(answer, status: 201)
            try payments.keep(db, key, encoded, terminal: terminal.terminalId, at: now)
            return encoded
        }
    }

    /// What a refund paid out does to its payment: the sum refunded grows, and the payment is
    /// REFUNDED once nothing of it is left.
    package func settle(_ db: Connection, refund: TransactionRecord, at now: Int64) throws {
        guard let originalID = refund.originalID, var original = try db.apm.record(id: originalID) else { return }
        let refunded = try db.apm.refunded(payment: original.id)
        original.refundAmount = refunded
        original.refundedAt = now
        if refunded >= original.amount, original.status == .CLEARED {
            original.moveAPM(to: .REFUNDED, by: .refund, at: now)
        }
        try original.save(db, at: now)
    }
}
