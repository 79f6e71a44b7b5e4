import FastJSON
import HostStorage
import CardPayload
import Foundation
import SandboxCore
import SandboxCrypto
import SandboxStore
import SandboxWire

/// MONEI's API on a MONEI region's host (docs/monei.md): POS tokens for a merchant's backend, the
/// device's card payment, the Payment object, refunds and the signed payment callback.
///
/// A MONEI account is a merchant of the region's fixtures (its API key is the account's
/// `pk_test_…` key), a point of sale is one of its terminals, and a store groups them
/// (``MoneiStores``). A payment is a card transaction of the host's own payment engine (``CardPayments``:
/// the card payload, the issuer, magic amounts, test cards), seen through MONEI's Payment object, and
/// its callback goes through the host's outbox and dispatcher, signed `MONEI-Signature` with the
/// account's key.
package struct MoneiPayments: Sendable {
    package let payments: CardPayments
    package let stores: MoneiStores
    package let tokens: PosTokens

    package var lifecycle: Lifecycle { payments.lifecycle }
    package var store: Store { payments.store }
    package var region: Region { payments.region }

    package func now() -> Int64 { payments.now() }

    package static let refundReasons = ["duplicated", "fraudulent", "requested_by_customer"]

    // MARK: - Credentials

    /// The account whose API key a backend's request carries (`Authorization: <API key>`, no scheme word).
    package func account(apiKey: String?) throws(MoneiError) -> Merchant {
        guard let apiKey, !apiKey.isEmpty else { throw .missingKey }
        let given = Array(apiKey.utf8)
        guard let merchant = lifecycle.directory.merchants.values.first(where: { ConstantTime.equals(Array($0.apiKey.utf8), given) })
        else { throw .wrongKey }
        return merchant
    }

    /// The point of sale a device's `Authorization: Bearer <POS token>` is for.
    package func pointOfSale(bearer token: String?) throws(MoneiError) -> PosTokens.Claims {
        guard let token, !token.isEmpty else { throw .missingToken }
        let claims = try tokens.verify(token, at: now())
        // A token of a point of sale the fixtures no longer have is no token.
        guard let info = lifecycle.directory.infos[claims.pointOfSaleId], info.merchantId == claims.acc else { throw .invalidToken }
        return claims
    }

    // MARK: - POS tokens

    /// `POST /v1/pos/auth-token`: a token for a point of sale of the account, valid 24 hours.
    ///
    /// No `storeId` and no `pointOfSaleId`: the account's first store and its first point of sale;
    /// a store alone: its first point of sale. A store or point of sale of another account is not found.
    package func authToken(_ account: Merchant, _ body: MoneiBodies.AuthTokenRequest) throws -> MoneiBodies.AuthToken {
        let store: MoneiStores.Store
        let pointOfSale: String
        switch (body.storeId, body.pointOfSaleId) {
        case (let storeID?, let posID?):
            guard let found = stores.store(storeID, account: account.id) else { throw MoneiError.storeNotFound(storeID) }
            guard found.pointsOfSale.contains(posID) else { throw MoneiError.pointOfSaleNotFound(posID) }
            (store, pointOfSale) = (found, posID)
        case (let storeID?, nil):
            guard let found = stores.store(storeID, account: account.id) else { throw MoneiError.storeNotFound(storeID) }
            (store, pointOfSale) = (found, found.pointsOfSale[0])
        case (nil, let posID?):
            guard let found = stores.store(ofPointOfSale: posID), found.accountId == account.id else {
                throw MoneiError.pointOfSaleNotFound(posID)
            }
            (store, pointOfSale) = (found, posID)
        case (nil, nil):
            guard let found = stores.firstStore(account: account.id) else { throw MoneiError.noStore }
            (store, pointOfSale) = (found, found.pointsOfSale[0])
        }
        let now = now()
        let claims = PosTokens.Claims(
            acc: account.id, storeId: store.id, pointOfSaleId: pointOfSale, iat: now / 1000, exp: (now + PosTokens.lifetime) / 1000,
            jti: Hex.encode(payments.random.bytes(count: 12)))
        return MoneiBodies.AuthToken(token: try tokens.issue(claims))
    }

    /// `POST /v1/pos/prepare`: what the token is for, and the reader's key to seal card reads with.
    package func prepare(_ claims: PosTokens.Claims) -> MoneiBodies.PointOfSale {
        let now = now()
        return MoneiBodies.PointOfSale(
            accountId: claims.acc, storeId: claims.storeId, pointOfSaleId: claims.pointOfSaleId, expiresAt: claims.exp,
            reader: ReaderConfiguration(
                readerKey: Base64.encode(payments.data.readerKey), keyId: payments.data.readerKeyID, serverTime: Wire.time(now),
                serverTimeUnix: Wire.unix(now), cardScreenTimeoutSeconds: 40, payloadLifetimeSeconds: 120, pinTimeoutSeconds: 60))
    }

    /// `POST /_sandbox/monei/card-read`: the simulated reader's part for a script without a device
    /// library: the test card `name` (sandbox-data/cards.json) read now and sealed for the token's
    /// point of sale, as the device would send it in `card`.
    package func cardRead(_ claims: PosTokens.Claims, card name: String) throws -> String {
        guard let card = payments.data.issuer.card(named: name) else {
            throw MoneiError.invalid("cards.json has no card \(name) with every field of a read.", field: "card")
        }
        let payload = CardPayload(readId: Hex.encode(payments.random.bytes(count: 16)), readAt: now(), card: card)
        return try PayloadSealer.seal(
            payload, key: payments.data.readerKey, region: region.id, terminalId: claims.pointOfSaleId, random: payments.random)
    }

    // MARK: - The device's payment

    /// `POST /v1/pos/payments`: the card the device read, paid and answered as a Payment object once
    /// it is durable, through `reply`.
    ///
    /// The card payload is opened first (its own refusals: `card_payload_invalid`, `invalid_pan` …),
    /// then the issuer and the magic amounts decide; a declined card is a FAILED payment, not an
    /// error. The callbackUrl is checked after the card read, as MONEI does: a refused one makes no
    /// payment and answers 422 `outcome_unknown`. One payment at a time per point of sale.
    package func pay(_ claims: PosTokens.Claims, _ body: MoneiBodies.PaymentRequest, reply: @escaping Answered<MoneiPayment>) throws {
        guard let terminal = lifecycle.directory.infos[claims.pointOfSaleId] else { throw MoneiError.invalidToken }
        guard body.amount > 0 else { throw MoneiError.invalid("amount must be more than 0 cents.", field: "amount") }
        guard body.amount <= terminal.limitAmount else {
            throw MoneiError.invalid("amount must be at most \(terminal.limitAmount) cents on this point of sale.", field: "amount")
        }
        let currency = body.currency ?? region.currency.code
        guard currency == region.currency.code else {
            throw MoneiError.invalid("currency must be \(region.currency.code).", field: "currency")
        }
        let orderID = try Self.orderID(body.orderId)
        let input = try CardPayments.ReaderInput(cardPayload: body.card, readerOutcome: nil, payments: payments, terminal: terminal.terminalId)
        let now = now()
        // Resolving the callbackUrl's host may wait on DNS: done before the writer lock is taken.
        let callbackRefusal = body.callbackUrl.flatMap(payments.outbox.refusal(of:))
        store.write({ db -> MoneiPayment in
            // A transaction of the terminal API whose deadline passed no longer keeps the point of sale busy.
            try payments.expireStale(db, terminal: terminal.terminalId, at: now)
            guard try !payments.inFlight(db, terminal: terminal.terminalId) else { throw MoneiError.busy }
            var record = TransactionRecord(
                id: paymentID(at: now), terminalID: terminal.terminalId, merchantID: terminal.merchantId, type: .AUTH, status: .NEW,
                amount: body.amount, tipAmount: nil, currency: currency, reference: orderID, at: now)
            try payments.take(db, &record, input, at: now)
            settle(&record, at: now)
            if let callback = body.callbackUrl {
                if let reason = callbackRefusal { throw MoneiError.callbackRefused(reason) }
                record.callbackURL = callback
            }
            try record.save(db, at: now)
            let object = object(record)
            try sendCallback(db, record, object, type: Outbox.eventType(record) ?? "payment.failed", at: now)
            return object
        }, then: { result in
            reply { result }
        })
    }

    /// A non-empty order id of at most 100 visible characters, spaces inside allowed.
    package static func orderID(_ text: String) throws(MoneiError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .invalid("orderId must not be empty.", field: "orderId") }
        // Counted in code points, as JSON Schema's maxLength counts them.
        guard text.unicodeScalars.count <= 100, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalid("orderId must be at most 100 characters, with no control characters.", field: "orderId")
        }
        return text
    }

    /// MONEI's device takes a payment in one call, so nothing waits for a later step: a card that
    /// asks for an online PIN it did not bring is declined, and an issuer that does not answer
    /// (magic amount 42.68) times the payment out at once.
    private func settle(_ record: inout TransactionRecord, at now: Int64) {
        switch record.status {
        case .PIN_REQUESTED:
            payments.finish(&record, status: .DECLINED, by: .pin, code: "65", message: "PIN required", at: now)
        case .ONGOING, .DCC_REQUIRED, .NEW:
            record.move(to: .TIMEOUT, by: .deadline, at: now)
            record.responseCode = record.responseCode ?? "68"
            record.responseMessage = "The issuer did not answer in time"
        default:
            break
        }
    }

    /// A MONEI-shaped payment id: the host's time-ordered transaction id without its dashes (32 hex digits).
    package func paymentID(at now: Int64) -> String {
        payments.transactionID(at: now).replacingOccurrences(of: "-", with: "")
    }

    // MARK: - Reads and refunds

    /// `GET /v1/payments/{id}`: a payment of this account (another account's is not found).
    package func payment(_ id: String, account: Merchant) throws -> MoneiPayment {
        try store.read { db in object(try record(db, id, account: account)) }
    }

    private func record(_ db: Connection, _ id: String, account: Merchant) throws -> TransactionRecord {
        guard !id.isEmpty, id.utf8.count <= 64, let record = try db.transactions.record(id: id), record.merchantID == account.id,
            record.type == .AUTH, record.paymentMethod == .CARD
        else { throw MoneiError.paymentNotFound }
        return record
    }

    /// `POST /v1/payments/{id}/refund`: refunds part or all of what is left of a succeeded payment
    /// (all of it when `amount` is left out); PARTIALLY_REFUNDED until nothing is left, then REFUNDED.
    /// The callback goes out again, with the payment as it is now.
    package func refund(_ id: String, account: Merchant, _ body: MoneiBodies.RefundRequest, reply: @escaping Answered<MoneiPayment>) throws {
        if let amount = body.amount, amount <= 0 { throw MoneiError.invalid("amount must be more than 0 cents.", field: "amount") }
        if let reason = body.refundReason, !Self.refundReasons.contains(reason) {
            throw MoneiError.invalid("refundReason must be \(Self.refundReasons.joined(separator: ", ")).", field: "refundReason")
        }
        let now = now()
        store.write({ db -> MoneiPayment in
            var original = try record(db, id, account: account)
            if original.status == .REFUNDED { throw MoneiError.alreadyRefunded }
            guard original.status == .CLEARED else { throw MoneiError.notRefundable(object(original).status.rawValue) }
            let left = original.amount - (original.refundAmount ?? 0)
            let amount = body.amount ?? left
            guard amount <= left else { throw MoneiError.refundOverAmount(left: left) }
            // The refund is a transaction of its own (the back office lists it), approved at once: a
            // credit the issuer always takes.
            var refund = TransactionRecord(
                id: paymentID(at: now), terminalID: original.terminalID, merchantID: original.merchantID, type: .REFUND, status: .CLEARED,
                amount: amount, tipAmount: nil, currency: original.currency, reference: original.reference, at: now)
            refund.originalID = original.id
            refund.cardBrand = original.cardBrand
            refund.maskedPAN = original.maskedPAN
            refund.cardCountry = original.cardCountry
            refund.responseCode = "00"
            refund.responseMessage = body.refundReason.map { "Refunded: \($0)" } ?? "Refunded"
            try refund.save(db, at: now)
            original.refundAmount = (original.refundAmount ?? 0) + amount
            original.refundedAt = now
            original.refundedMaskedPAN = original.maskedPAN
            if original.refundAmount! >= original.amount { original.move(to: .REFUNDED, by: .refund, at: now) }
            try original.save(db, at: now)
            let object = object(original, lastRefund: (amount, body.refundReason))
            try sendCallback(db, original, object, type: "refund.succeeded", at: now)
            return object
        }, then: { result in
            reply { result }
        })
    }

    // MARK: - The Payment object and its callback

    /// A card transaction of the host as MONEI's Payment object.
    package func object(_ record: TransactionRecord, lastRefund: (amount: Int, reason: String?)? = nil) -> MoneiPayment {
        let status = Self.status(record)
        let (code, message) = Self.statusCode(record, status: status)
        let card = MoneiPayment.Card(
            brand: record.cardBrand.map(Self.brand), last4: record.maskedPAN.map { String($0.suffix(4)) },
            type: record.applicationLabel.map { $0.uppercased().contains("DEBIT") ? "debit" : "credit" }, country: record.cardCountry)
        return MoneiPayment(
            id: record.id, amount: record.amount, currency: record.currency, accountId: record.merchantID, orderId: record.reference,
            status: status, statusCode: code, statusMessage: message,
            authorizationCode: status == .FAILED || status == .PENDING ? nil : record.authID, livemode: false,
            paymentMethod: record.maskedPAN == nil && record.cardBrand == nil ? nil : MoneiPayment.PaymentMethod(card: card),
            refundedAmount: record.refundAmount ?? 0, lastRefundAmount: lastRefund?.amount, lastRefundReason: lastRefund?.reason,
            storeId: stores.store(ofPointOfSale: record.terminalID)?.id, pointOfSaleId: record.terminalID,
            createdAt: record.createdAt / 1000, updatedAt: record.updatedAt / 1000)
    }

    package static func status(_ record: TransactionRecord) -> MoneiPayment.Status {
        if TransactionStateMachine.isInFlight(record.status) { return .PENDING }
        switch record.status {
        case .CLEARED: return (record.refundAmount ?? 0) > 0 ? .PARTIALLY_REFUNDED : .SUCCEEDED
        case .REFUNDED: return .REFUNDED
        case .CANCELLED, .USER_CANCELLED: return .CANCELED
        default: return .FAILED
        }
    }

    /// MONEI's `statusCode` and `statusMessage` for the issuer's ISO answer (docs/monei.md, "Status codes").
    package static func statusCode(_ record: TransactionRecord, status: MoneiPayment.Status) -> (String?, String?) {
        switch status {
        case .SUCCEEDED, .PARTIALLY_REFUNDED, .REFUNDED: return ("E000", "Transaction approved")
        case .PENDING: return (nil, nil)
        default: break
        }
        let message = record.responseMessage
        if record.status == .TIMEOUT { return ("E207", message ?? "Transaction failed: process time exceeded") }
        if record.status == .TERMINAL_DECLINED { return ("E505", message ?? "Card is expired") }
        switch record.responseCode {
        case "51": return ("E512", message ?? "Insufficient funds")
        case "54": return ("E505", message ?? "Card is expired")
        case "55": return ("E516", message ?? "Incorrect PIN")
        case "65": return ("E517", message ?? "PIN required")
        case "91": return ("E506", message ?? "Error during payment authorization")
        case "96": return ("E101", message ?? "Error while processing the transaction")
        default: return ("E201", message ?? "Transaction declined by the card issuer")
        }
    }

    /// The network in MONEI's lower-case names; `unknown` for one MONEI does not name.
    package static func brand(_ brand: String) -> String {
        let known = ["visa", "mastercard", "diners", "amex", "jcb", "unionpay", "discover"]
        let lower = brand.lowercased()
        return known.contains(lower) ? lower : "unknown"
    }

    /// Queues the bare Payment object for the payment's callbackUrl (else the account's webhook
    /// endpoint, else the operator's receiver), in the same write as the change it reports; the
    /// dispatcher signs it `MONEI-Signature` with the account's API key and retries it.
    private func sendCallback(_ db: Connection, _ record: TransactionRecord, _ object: MoneiPayment, type: String, at now: Int64) throws {
        let outbox = payments.outbox
        let endpoint = try outbox.endpoint(db, merchant: record.merchantID, at: now)
        guard let url = record.callbackURL ?? endpoint.url ?? outbox.defaultURL?(record.merchantID) else { return }
        try outbox.enqueue(
            db, id: "evt_" + Hex.encode(payments.random.bytes(count: 12)), type: type, merchant: record.merchantID, transaction: record.id,
            url: url, scheme: record.callbackURL == nil ? endpoint.scheme : "monei", disabled: record.callbackURL == nil && endpoint.disabled,
            body: try SortedJSONEncoder.encode(object), at: now)
    }

    package init(payments: CardPayments, stores: MoneiStores, tokens: PosTokens) {
        self.payments = payments
        self.stores = stores
        self.tokens = tokens
    }
}
