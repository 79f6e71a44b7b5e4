import HostStorage
import CardPayload
import Foundation
import SandboxCore
import SandboxCrypto
import SandboxStore
import SandboxWire

/// The calls of the terminal API that move money or its state.
extension CardPayments {
    /// The bodies of the sale and refund calls: the wire's, one type with the SDK's.
    package typealias SaleRequest = SandboxWire.SaleRequest
    package typealias RefundRequest = SandboxWire.RefundRequest

    /// The smallest sale of the region (`limits.minTransactionAmount`, PagBank's R$ 1,00), 1 elsewhere.
    package var minimumSale: Int { region.limits.minTransactionAmount ?? 1 }

    /// The terminal a session is on, as the payment rules read it.
    package func terminalInfo(_ session: Lifecycle.CurrentSession) throws -> TerminalInfo {
        try lifecycle.terminalInfo(session)
    }

    /// doPayment: validates, then creates the sale (NEW when no card came with it) and processes the card.
    package func sale(_ session: Lifecycle.CurrentSession, _ request: SaleRequest, key: IdempotencyKey?, reply: @escaping Answered<PaymentAnswer>) throws {
        let terminal = try terminalInfo(session)
        try PaymentValidation.sale(request, terminal: terminal, minimumAmount: minimumSale)
        let input = try ReaderInput(
            cardPayload: request.cardPayload, readerOutcome: request.readerOutcome, payments: self, terminal: terminal.terminalId)
        let now = now()
        // Resolving the callbackUrl's host may wait on DNS: done before the writer lock is taken.
        let callbackRefusal = request.callbackUrl.flatMap(outbox.refusal(of:))
        transact(terminal, key: key, status: 201, at: now, reply: reply) { db in
            if let checkout = request.checkoutId {
                try useCheckout(db, checkout, terminal: terminal.terminalId, request: request, at: now)
            }
            guard try !inFlight(db, terminal: terminal.terminalId) else { throw PaymentError.terminalBusy }
            var record = TransactionRecord(
                id: transactionID(at: now), terminalID: terminal.terminalId, merchantID: terminal.merchantId, type: .AUTH, status: .NEW,
                amount: request.requestedAmount, tipAmount: request.tipAmount, currency: request.currency,
                reference: request.reference, at: now)
            try take(db, &record, input, at: now)
            // MONEI checks the callbackUrl after the card read; a refused one creates no payment, and
            // the device cannot know whether the card was charged.
            if let callback = request.callbackUrl {
                if let reason = callbackRefusal {
                    throw PaymentError.outcomeUnknown(reason)
                }
                record.callbackURL = callback
            }
            try record.save(db, at: now)
            if let checkout = request.checkoutId {
                try db.transactions.useCheckout(checkout, transaction: record.id)
            }
            return record
        }
    }

    /// What the reader sent with a request: a card read (opened and checked, not yet spent), what it
    /// saw instead of a card, or nothing yet. Opened before the write, so the decryption does not
    /// hold the writer lock.
    package enum ReaderInput: Sendable {
        /// A card read, with its PAN's hash (worked out here, not on the store's writer thread).
        case card(CardPayload, panHash: String)
        case outcome(TransactionStatus, String)
        case nothing

        package init(cardPayload: String?, readerOutcome: String?, payments: CardPayments, terminal: String) throws {
            switch (cardPayload, readerOutcome) {
            case (let sealed?, nil):
                let payload = try payments.openCard(sealed: sealed, terminal: terminal)
                self = .card(payload, panHash: payload.card.map { Issuer.key($0.pan) } ?? "")
            case (nil, let outcome?): self = .outcome(try CardPayments.status(of: outcome), outcome)
            case (nil, nil): self = .nothing
            case (_?, _?): throw PaymentError.invalidRequest("Send a cardPayload or a readerOutcome, not both.", field: "readerOutcome")
            }
        }
    }

    /// The card (or what the reader saw instead) for a NEW transaction, or for one being created.
    package func take(_ db: Connection, _ record: inout TransactionRecord, _ input: ReaderInput, at now: Int64) throws {
        switch input {
        case .card(let payload, let panHash):
            try spendRead(db, readId: payload.readId, readAt: payload.readAt, at: now)
            try process(db, &record, payload: payload, panHash: panHash, at: now)
        case .outcome(let status, let outcome):
            finish(&record, status: status, by: .card, code: nil, message: "Reader: \(outcome)", at: now)
        case .nothing:
            // Created without its card: it waits for one.
            record.status = TransactionStateMachine.initial
            record.pendingUntil = TransactionStateMachine.wait(in: record.status).map { now + $0 }
        }
    }

    /// One step of a transaction that waits for it: the terminal's stored transaction, refused
    /// with `wrong_state` unless the state machine accepts `event` in its status, changed by
    /// `body`, settled and saved, in one write transaction (``transact(_:key:status:at:reply:_:)``).
    private func step(
        _ session: Lifecycle.CurrentSession, transaction id: String, _ event: TransactionStateMachine.Event, key: IdempotencyKey?,
        reply: @escaping Answered<PaymentAnswer>, _ body: @escaping @Sendable (Connection, inout TransactionRecord, Int64) throws -> Void
    ) throws {
        let terminal = try terminalInfo(session)
        let now = now()
        transact(terminal, key: key, status: 200, at: now, reply: reply) { db in
            var record = try record(db, id: id, terminal: terminal.terminalId)
            // A QR order takes no card, PIN or DCC choice, whatever its status.
            guard TransactionStateMachine.applies(event, to: record.paymentMethod) else {
                throw PaymentError.wrongState("The transaction is a \(record.paymentMethod.rawValue) payment: it takes no card, PIN or DCC choice.")
            }
            guard TransactionStateMachine.accepts(event, record.status) else {
                throw PaymentError.wrongState(TransactionStateMachine.refusal(event, record.status))
            }
            try body(db, &record, now)
            try settle(db, record, at: now)
            try record.save(db, at: now)
            return record
        }
    }

    /// POST …/{id}/card: the card for a transaction that waits for one.
    package func card(
        _ session: Lifecycle.CurrentSession, transaction id: String, cardPayload: String?, readerOutcome: String?, key: IdempotencyKey?,
        reply: @escaping Answered<PaymentAnswer>
    ) throws {
        let input = try ReaderInput(cardPayload: cardPayload, readerOutcome: readerOutcome, payments: self, terminal: session.terminal.id)
        try step(session, transaction: id, .card, key: key, reply: reply) { db, record, now in
            if case .nothing = input {
                throw PaymentError.invalidRequest("Send a cardPayload or a readerOutcome.", field: "cardPayload")
            }
            try take(db, &record, input, at: now)
        }
    }

    /// doRefund: a card-present credit of a cleared sale that can no longer be reversed.
    package func refund(_ session: Lifecycle.CurrentSession, _ request: RefundRequest, key: IdempotencyKey?, reply: @escaping Answered<PaymentAnswer>) throws {
        let terminal = try terminalInfo(session)
        guard terminal.isRefundAvailable else { throw PaymentError.refundNotAllowed }
        try PaymentValidation.refund(request, terminal: terminal)
        let input = try ReaderInput(
            cardPayload: request.cardPayload, readerOutcome: request.readerOutcome, payments: self, terminal: terminal.terminalId)
        let now = now()
        transact(terminal, key: key, status: 201, at: now, reply: reply) { db in
            let original = try refundable(
                db, request.transactionId, amount: request.requestedAmount, currency: request.currency, terminal: terminal, at: now)
            guard try !inFlight(db, terminal: terminal.terminalId) else { throw PaymentError.terminalBusy }
            var record = TransactionRecord(
                id: transactionID(at: now), terminalID: terminal.terminalId, merchantID: terminal.merchantId, type: .REFUND, status: .NEW,
                amount: request.requestedAmount, tipAmount: nil, currency: request.currency, reference: request.reference, at: now)
            record.originalID = original.id
            try take(db, &record, input, at: now)
            try settle(db, record, at: now)
            try record.save(db, at: now)
            return record
        }
    }

    /// The sale a refund names, when it can be refunded by `amount` now (the refund itself, and
    /// the validation before its card screen, ask the same).
    ///
    /// - Parameter currency: the refund's currency; nil when the request names none (validation).
    /// - Throws: `transaction_not_found`, `transaction_not_refundable`, `already_refunded`,
    ///   `currency_mismatch`, `refund_over_amount`, `transaction_still_cancellable`.
    private func refundable(
        _ db: Connection, _ id: String, amount: Int, currency: String?, terminal: TerminalInfo, at now: Int64
    ) throws -> TransactionRecord {
        let original = try record(db, id: id, terminal: terminal.terminalId)
        guard original.paymentMethod == .CARD else { throw PaymentError.qrPaymentByCard }
        guard original.type == .AUTH else {
            throw PaymentError.refundOfRefund
        }
        if original.status == .REFUNDED { throw PaymentError.alreadyRefunded }
        guard TransactionStateMachine.isRefundable(original.type, original.status) else {
            throw PaymentError.notRefundable(status: original.status.rawValue)
        }
        if let currency, currency != original.currency {
            throw PaymentError.refundCurrencyMismatch(original.currency)
        }
        guard amount <= original.amount else { throw PaymentError.refundOverAmount }
        if try isCancellable(db, original, terminal: terminal, at: now) { throw PaymentError.stillCancellable }
        return original
    }

    /// What a final answer changes elsewhere: the sale a cleared refund names becomes REFUNDED.
    private func settle(_ db: Connection, _ refund: TransactionRecord, at now: Int64) throws {
        guard refund.type == .REFUND, refund.status == .CLEARED, let originalID = refund.originalID else { return }
        var original = try record(db, id: originalID, terminal: refund.terminalID)
        original.move(to: .REFUNDED, by: .refund, at: now)
        original.refundedAt = now
        original.refundedMaskedPAN = refund.maskedPAN
        original.refundAmount = refund.amount
        try original.save(db, at: now)
    }

    /// Whether a sale can still be reversed: a sale waiting for the DCC choice (cancelling it is a
    /// reversal too), or the terminal's latest cleared sale within 30 minutes. Only a later sale
    /// that cleared ends that window: a decline, a cancelled card read or a sale still in flight
    /// after it does not. A later sale that cleared and was then reversed or refunded still ended it.
    package func isCancellable(_ db: Connection, _ record: TransactionRecord, terminal: TerminalInfo, at now: Int64) throws -> Bool {
        // A QR payment is never reversed: it is cancelled before it is paid, refunded after.
        guard terminal.isReversalAvailable, record.paymentMethod == .CARD else { return false }
        // Within 30 minutes, the 30th included (TransactionStateMachine.reversibility).
        switch TransactionStateMachine.reversibility(record.type, record.status, age: now - record.createdAt) {
        case .no: return false
        case .yes: return true
        case .whileLatest:
            // A sale inserted by the write under way is its terminal's latest: no need to look it up.
            if record.isInsertedNow { return true }
            return try !db.transactions.hasApprovedSale(after: record)
        }
    }

    /// doReversal: the latest sale is cancelled (by the user, or by the system).
    package func reverse(
        _ session: Lifecycle.CurrentSession, transaction id: String, byUser: Bool, expectedAmount: Int? = nil, cardPayload: String? = nil,
        key: IdempotencyKey?, reply: @escaping Answered<PaymentAnswer>
    ) throws {
        let terminal = try terminalInfo(session)
        // Opened before the write, as a sale's card is.
        let card = try cardPayload.map { sealed in
            let payload = try openCard(sealed: sealed, terminal: terminal.terminalId)
            return (payload, panHash: payload.card.map { Issuer.key($0.pan) } ?? "")
        }
        let now = now()
        transact(terminal, key: key, status: 200, at: now, reply: reply) { db in
            var record = try record(db, id: id, terminal: terminal.terminalId)
            guard terminal.isReversalAvailable else { throw PaymentError.reversalNotAllowed }
            // The caller says what it cancels (PagBank's cancel names the sale's amount): another amount is refused.
            if let expectedAmount, expectedAmount != record.amount { throw PaymentError.amountMismatch(record.amount) }
            // The card read for the cancel (Geopagos) is spent, and must be the sale's.
            if let (payload, panHash) = card {
                try spendRead(db, readId: payload.readId, readAt: payload.readAt, at: now)
                guard let sold = record.panHash, ConstantTime.equals(Array(sold.utf8), Array(panHash.utf8)) else {
                    throw PaymentError.cardMismatch
                }
            }
            // Cancelling during the DCC choice is a reversal too (the seed's isCancelledByUser case).
            guard try isCancellable(db, record, terminal: terminal, at: now) else { throw PaymentError.notCancellable }
            cancel(&record, byUser: byUser, at: now)
            try record.save(db, at: now)
            return record
        }
    }

    /// What a reversal makes of a sale (a sample `payment.canceled` is made by it too).
    package func cancel(_ record: inout TransactionRecord, byUser: Bool, at now: Int64) {
        record.move(to: byUser ? .USER_CANCELLED : .CANCELLED, by: .reversal, at: now)
        record.eventType = "payment.canceled"
        record.responseMessage = byUser ? "Cancelled by the user" : "Cancelled"
    }

    /// doMakeTransactionFinishDCC: the customer takes or refuses the offer, then the issuer answers.
    package func finishDCC(
        _ session: Lifecycle.CurrentSession, transaction id: String, accepted: Bool, key: IdempotencyKey?, reply: @escaping Answered<PaymentAnswer>
    ) throws {
        try step(session, transaction: id, .dccChoice, key: key, reply: reply) { _, record, now in
            // A refused offer keeps its amount, rate and markup: the detail still shows what was
            // offered, and `dccStatus` DECLINED says the sale was paid in the terminal's currency.
            record.dccStatus = accepted ? .ACCEPTED : .DECLINED
            // An online-PIN card still needs its PIN after the currency choice.
            if record.pinVerified || record.cvm != CardholderVerification.onlinePin.rawValue {
                authorise(&record, by: .dccChoice, at: now)
            } else {
                record.move(to: .PIN_REQUESTED, by: .dccChoice, at: now)
                record.responseCode = "65"
                record.responseMessage = "PIN required"
            }
        }
    }

    /// The PIN typed on the reader after PIN_REQUESTED.
    package func pin(
        _ session: Lifecycle.CurrentSession, transaction id: String, sealed: String, key: IdempotencyKey?, reply: @escaping Answered<PaymentAnswer>
    ) throws {
        try step(session, transaction: id, .pin, key: key, reply: reply) { db, record, now in
            let payload: PinPayload
            do {
                payload = try PayloadSealer.open(sealed, as: PinPayload.self, key: data.readerKey, region: region.id, terminalId: record.terminalID)
            } catch {
                throw PaymentError.pinPayloadInvalid
            }
            try spendRead(db, readId: payload.readId, readAt: payload.readAt, at: now)
            record.retries += 1
            if data.issuer.pinMatches(payload.pin, panHash: record.panHash ?? "") {
                record.pinVerified = true
                authorise(&record, by: .pin, at: now)
            } else {
                finish(&record, status: .DECLINED, by: .pin, code: "55", message: "Incorrect PIN", at: now)
            }
        }
    }

    // MARK: - Checkouts

    package struct Checkout: Codable, Sendable {
        package let checkoutId: String
        package let terminalId: String
        package let amount: Int
        package let currency: String
        package let tipAmount: Int?
        package let reference: String?
        package let expiresAt: String
    }

    package struct CheckoutRequest: Codable, Sendable {
        package let terminalId: String
        package let amount: Int
        package let currency: String
        package let tipAmount: Int?
        package let reference: String?
    }

    /// The merchant pre-registers what a sale must be.
    package func createCheckout(merchant: String, _ request: CheckoutRequest) throws -> Checkout {
        let now = now()
        return try store.write { db in
            guard let info = lifecycle.directory.infos[request.terminalId], info.merchantId == merchant else {
                throw LifecycleError.terminalNotFound
            }
            try PaymentValidation.sale(
                SaleRequest(
                    currency: request.currency, requestedAmount: request.amount, tipAmount: request.tipAmount,
                    reference: request.reference, checkoutId: nil, countryCode: nil, cardPayload: nil, readerOutcome: nil,
                    callbackUrl: nil),
                terminal: info, amountField: "amount")
            let id = "co_" + Hex.encode(random.bytes(count: 12))
            let expires = now + Self.checkoutLifetime
            try db.transactions.addCheckout(
                id, merchant: merchant, terminal: request.terminalId, amount: request.amount, tipAmount: request.tipAmount,
                currency: request.currency, reference: request.reference, at: now, expiresAt: expires)
            return Checkout(
                checkoutId: id, terminalId: request.terminalId, amount: request.amount, currency: request.currency,
                tipAmount: request.tipAmount, reference: request.reference, expiresAt: Wire.time(expires))
        }
    }

    private func useCheckout(_ db: Connection, _ id: String, terminal: String, request: SaleRequest, at now: Int64) throws {
        guard let checkout = try db.transactions.checkout(id, terminal: terminal) else { throw PaymentError.checkoutNotFound }
        guard checkout.transactionID == nil else { throw PaymentError.checkoutUsed }
        guard now < checkout.expiresAt else { throw PaymentError.checkoutExpired }
        guard checkout.amount == request.requestedAmount else { throw PaymentError.checkoutMismatch("requestedAmount") }
        guard checkout.currency == request.currency else { throw PaymentError.checkoutMismatch("currency") }
        // A tip of 0 is no tip, on either side.
        guard (checkout.tipAmount ?? 0) == (request.tipAmount ?? 0) else { throw PaymentError.checkoutMismatch("tipAmount") }
        guard checkout.reference == request.reference else { throw PaymentError.checkoutMismatch("reference") }
    }

    // MARK: - Validate

    package struct ValidateRequest: Codable, Sendable {
        package let transactionServiceType: String
        package let requestedAmount: Int?
        package let countryCode: String?
        /// The seed's `validate:` argument: the reference the transaction will carry.
        package let reference: String?
        /// Not in the seed's call; the SDK sends them before the card screen so that the host
        /// refuses a sale's tip or a refund of its sale before the customer taps.
        package let tipAmount: Int?
        /// An empty value counts as absent, as in the details query.
        package let transactionId: String?
        /// Not in the seed's call: the currency, checked against the terminal's before the card screen.
        package let currency: String?
    }

    /// validateTransaction: would this operation be accepted now?
    package func validate(_ session: Lifecycle.CurrentSession, _ request: ValidateRequest) throws {
        let terminal = try terminalInfo(session)
        let now = now()
        if session.expiresAt - now < 60_000 { throw PaymentError.sessionExpiring }
        if request.transactionServiceType != "REVERSAL" {
            let busy = try store.write { db in
                try expireStale(db, terminal: terminal.terminalId, at: now)
                return try inFlight(db, terminal: terminal.terminalId)
            }
            if busy { throw PaymentError.terminalBusy }
        }
        try PaymentValidation.country(request.countryCode, terminal: terminal)
        try PaymentValidation.reference(request.reference, terminal: terminal)
        if let currency = request.currency { try PaymentValidation.currency(currency, terminal: terminal) }
        switch request.transactionServiceType {
        case "PAYMENT":
            guard let amount = request.requestedAmount else {
                throw PaymentError.invalidRequest("requestedAmount is required for a payment.", field: "requestedAmount")
            }
            try PaymentValidation.amount(amount, terminal: terminal, field: "requestedAmount", minimumAmount: minimumSale)
            try PaymentValidation.tip(request.tipAmount, requestedAmount: amount, terminal: terminal)
        case "REFUND":
            guard terminal.isRefundAvailable else { throw PaymentError.refundNotAllowed }
            guard let amount = request.requestedAmount else {
                throw PaymentError.invalidRequest("requestedAmount is required for a refund.", field: "requestedAmount")
            }
            try PaymentValidation.amount(amount, terminal: terminal, field: "requestedAmount")
            if let id = request.transactionId, !id.isEmpty {
                _ = try store.read { db in try refundable(db, id, amount: amount, currency: nil, terminal: terminal, at: now) }
            }
        case "REVERSAL":
            guard terminal.isReversalAvailable else { throw PaymentError.reversalNotAllowed }
        default:
            throw PaymentError.invalidRequest(
                "transactionServiceType must be PAYMENT, REFUND or REVERSAL.", field: "transactionServiceType")
        }
    }
}
