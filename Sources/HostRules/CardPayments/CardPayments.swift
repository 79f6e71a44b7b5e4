import HostStorage
import CardPayload
import Foundation
import SandboxCore
import SandboxCrypto
import SandboxStore
import SandboxWire

/// What a host needs for card payments: its region's reader key, magic amounts, FX rates, the issuer's cards.
public struct PaymentData: Sendable {
    public let readerKey: [UInt8]
    /// Names the key so a device can tell when it changed (`EU-1f0c3a9e`).
    public let readerKeyID: String
    public let magicAmounts: MagicAmounts
    public let fx: FXTable
    public let issuer: Issuer

    public init(readerKey: [UInt8], readerKeyID: String, magicAmounts: MagicAmounts, fx: FXTable, issuer: Issuer) {
        self.readerKey = readerKey
        self.readerKeyID = readerKeyID
        self.magicAmounts = magicAmounts
        self.fx = fx
        self.issuer = issuer
    }
}

/// Card payments of one host: sale, refund, reversal, DCC, PIN, and the reads of them.
///
/// Every change runs in one write transaction, so the busy rule, idempotency keys, card reads
/// and checkouts hold however many requests race. Rules: docs/card-payments.md.
package struct CardPayments: Sendable {
    package let lifecycle: Lifecycle
    package let data: PaymentData
    package let random: any RandomSource
    package let outbox: Outbox

    package var store: Store { lifecycle.store }
    package var region: Region { lifecycle.region }

    package static let payloadLifetime: Int64 = 120_000
    /// How far ahead of the host a read may be dated: a device's clock runs on through the card
    /// screen (a simulated reader's clock even jumps over the 40 s screen timeout) while the host's
    /// stays where it was, so one payload lifetime; only reads dated beyond are refused as forged.
    package static let clockSkewAllowance: Int64 = 120_000
    package static let checkoutLifetime: Int64 = 30 * 60_000

    package func now() -> Int64 { lifecycle.now() }

    // MARK: - Identifiers

    /// A UUID version 7 (RFC 9562): the host clock's milliseconds, then 74 random bits. Ids made
    /// one after another sort one after another, so the unique index on them grows at its end
    /// instead of touching a random page of a large index for every new transaction.
    package func transactionID(at now: Int64) -> String {
        var bytes = random.bytes(count: 16)
        let milliseconds = UInt64(clamping: max(0, now))
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * index)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return String(unsafeUninitializedCapacity: 36) { text in
            var count = 0
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[count] = UInt8(ascii: "-")
                    count += 1
                }
                text[count] = Self.hexDigits[Int(byte >> 4)]
                text[count + 1] = Self.hexDigits[Int(byte & 0x0F)]
                count += 2
            }
            return count
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `count` random decimal digits (1 to 18), drawn as one number: one call to the random source,
    /// not one per digit.
    package func digits(_ count: Int) -> String {
        precondition((1...18).contains(count), "digits(\(count)): 1 to 18 digits fit one Int")
        let limit = (0..<count).reduce(1) { value, _ in value * 10 }
        let number = String(random.int(in: 0..<limit))
        return String(repeating: "0", count: count - number.count) + number
    }

    // MARK: - Idempotent changes

    /// An `Idempotency-Key` and the hash of the request it came with.
    package struct IdempotencyKey: Sendable {
        package let key: String
        package let requestHash: String

        package init(key: String, requestHash: String) {
            self.key = key
            self.requestHash = requestHash
        }
    }

    /// Runs one change of a terminal's transactions in one write transaction and answers its
    /// detail through `reply` once the change is durable (told on the store's syncer thread, encoded
    /// by the thread that sends it; the caller's thread goes on meanwhile).
    ///
    /// Deadlines are applied first; a repeated `Idempotency-Key` answers the stored first result
    /// (same request) or 409 (another request). Only successful answers are stored, in the same
    /// database transaction as the change, so a retry after an error runs again and a retry after
    /// success never charges twice.
    package func transact(
        _ terminal: TerminalInfo, key: IdempotencyKey?, status: Int, at now: Int64, reply: @escaping Answered<PaymentAnswer>,
        _ body: @escaping @Sendable (Connection) throws -> TransactionRecord
    ) {
        // The answer is encoded after the commit, off the writer, unless it must be kept for a
        // repeated Idempotency-Key (then it is stored with the change, in the same transaction).
        store.write({ db -> PaymentAnswer in
            try expireStale(db, terminal: terminal.terminalId, at: now)
            if let kept = try kept(db, key, terminal: terminal.terminalId) { return kept }
            let record = try body(db)
            // The webhook of a final outcome commits with the outcome itself.
            try outbox.record(db, record, at: now)
            let detail = try detail(db, record, terminal: terminal, at: now)
            guard let key else { return .fresh(detail, status: status) }
            let answer = try PaymentAnswer.encoded(detail, status: status)
            try keep(db, key, answer, terminal: terminal.terminalId, at: now)
            return answer
        }, then: { result in
            // Encoded by the thread that sends the answer, not by the store's syncer.
            reply { result }
        })
    }

    /// The first answer to a repeated `Idempotency-Key` of `terminal` (card, QR or BLIK), or nil.
    ///
    /// - Throws: ``PaymentError/idempotencyKeyReused`` when the key came with another request.
    package func kept(_ db: Connection, _ key: IdempotencyKey?, terminal: String) throws -> PaymentAnswer? {
        guard let key, let kept = try db.transactions.answer(terminal: terminal, key: key.key) else { return nil }
        guard kept.requestHash == key.requestHash else { throw PaymentError.idempotencyKeyReused }
        return .replay(kept)
    }

    /// Keeps an encoded answer (``PaymentAnswer/encoded(_:status:)``) under the key, in the change's transaction.
    package func keep(_ db: Connection, _ key: IdempotencyKey?, _ answer: PaymentAnswer, terminal: String, at now: Int64) throws {
        guard let key, let kept = answer.kept else { return }
        try db.transactions.keep(
            .init(requestHash: key.requestHash, status: kept.status, body: kept.body), terminal: terminal, key: key.key, at: now)
    }

    // MARK: - In flight

    /// Moves transactions whose in-flight deadline passed to TIMEOUT (the card, PIN, DCC choice or
    /// issuer answer never came). Done lazily, whenever the terminal is touched.
    package func expireStale(_ db: Connection, terminal: String, at now: Int64) throws {
        try outbox.timeOut(db, try db.transactions.expired(terminal: terminal, at: now), message: nil, at: now)
    }

    package func inFlight(_ db: Connection, terminal: String) throws -> Bool {
        try db.transactions.hasInFlight(terminal: terminal)
    }

    package func record(_ db: Connection, id: String, terminal: String) throws -> TransactionRecord {
        guard let record = try db.transactions.record(id: id, terminal: terminal) else { throw PaymentError.transactionNotFound }
        return record
    }

    // MARK: - Cards

    /// Opens a sealed card payload for this terminal (its read id is spent by ``spendRead(_:readId:readAt:at:)``).
    ///
    /// A payload that does not open is `card_payload_invalid`; one that opens but carries a card
    /// that breaks a rule of a card read gets that rule's own refusal (``PaymentError/cardRefused(_:)``).
    package func openCard(sealed: String, terminal: String) throws -> CardPayload {
        do {
            return try PayloadSealer.open(sealed, as: CardPayload.self, key: data.readerKey, region: region.id, terminalId: terminal)
        } catch {
            throw PaymentError.cardRefused(error) ?? PaymentError.cardPayloadInvalid
        }
    }

    /// Spends the read id of an opened card or PIN payload: a second use is a replay.
    package func spendRead(_ db: Connection, readId: String, readAt: Int64, at now: Int64) throws {
        guard try db.transactions.spendRead(readId: readId, readAt: readAt, at: now) else { throw PaymentError.cardPayloadReplayed }
    }

    /// Copies what the acquirer keeps of a card onto the transaction.
    package func attach(_ card: CardData, panHash: String, to record: inout TransactionRecord) {
        record.cardBrand = card.brand.rawValue
        record.maskedPAN = MaskedPAN.mask(card.pan)
        record.panHash = panHash
        record.cardExpiry = card.expiry
        record.cardCountry = card.country
        record.aid = card.aid
        record.applicationLabel = card.applicationLabel
        record.cvm = card.cvm.rawValue
    }

    /// What a reader outcome without a card becomes.
    package static func status(of outcome: String) throws(PaymentError) -> TransactionStatus {
        switch outcome {
        case "cancelled": .USER_CANCELLED
        case "timeout": .TIMEOUT
        case "background": .REJECTED
        default:
            throw PaymentError.invalidRequest("readerOutcome must be cancelled, timeout or background.", field: "readerOutcome")
        }
    }

    // MARK: - Processing a read card

    /// Takes a transaction from "card read" to its outcome: expiry, DCC offer, PIN, issuer.
    package func process(_ db: Connection, _ record: inout TransactionRecord, payload: CardPayload, panHash: String, at now: Int64) throws {
        record.pendingUntil = nil
        guard let card = payload.card else {
            throw PaymentError.invalidRequest("The card payload holds no card.", field: "cardPayload")
        }
        attach(card, panHash: panHash, to: &record)
        // readAt comes from the device: compare without overflowing, and refuse a read dated too far
        // ahead of the host's clock as a forged payload.
        let (age, overflow) = now.subtractingReportingOverflow(payload.readAt)
        guard overflow || age >= -Self.clockSkewAllowance else {
            throw PaymentError.cardReadInTheFuture
        }
        // A read older than the payload's 120 s reached the host too late.
        guard !overflow, age <= Self.payloadLifetime else {
            finish(&record, status: .TIMEOUT, by: .card, code: nil, message: "Card read older than 120 s", at: now)
            return
        }
        if card.isExpired(at: Date(timeIntervalSince1970: Double(now) / 1000)) {
            finish(&record, status: .TERMINAL_DECLINED, by: .card, code: nil, message: "Card expired (declined by the reader kernel)", at: now)
            return
        }
        if let pin = payload.pin {
            guard data.issuer.pinMatches(pin, panHash: record.panHash ?? "") else {
                finish(&record, status: .DECLINED, by: .card, code: "55", message: "Incorrect PIN", at: now)
                return
            }
            record.pinVerified = true
        }
        if record.type == .AUTH, region.features.dcc, record.dccStatus == nil,
            let currency = Currency(code: record.currency),
            let quote = data.fx.quote(amount: record.amount, from: currency, cardCountry: card.country)
        {
            record.move(to: .DCC_REQUIRED, by: .card, at: now)
            record.dccStatus = .OFFERED
            record.dccAmount = quote.amount
            record.dccCurrency = quote.currency.code
            record.dccRate = quote.exchangeRateValue
            record.dccMarkup = quote.markupPercentValue
            record.dccECB = quote.ecbIndicator
            return
        }
        if card.cvm == .onlinePin && !record.pinVerified {
            record.move(to: .PIN_REQUESTED, by: .card, at: now)
            record.responseCode = "65"
            record.responseMessage = "PIN required"
            return
        }
        authorise(&record, by: .card, at: now)
    }

    /// The issuer's answer: a card it always declines, else the magic amount.
    package func authorise(_ record: inout TransactionRecord, by event: TransactionStateMachine.Event, at now: Int64) {
        if data.issuer.declines(panHash: record.panHash ?? "") {
            finish(&record, status: .DECLINED, by: event, code: "05", message: "Do not honour", at: now)
            return
        }
        // Refunds are credits: the issuer accepts them whatever the amount. A sale's amount is read
        // in the terminal's currency (the sale's), even when the customer pays in theirs by DCC.
        let outcome =
            record.type == .REFUND
            ? MagicOutcome.approved
            : data.magicAmounts.outcome(forBaseAmount: record.baseAmount, currency: region.currency, region: region.id)
        switch outcome.kind {
        case .approve:
            approve(&record, by: event, code: outcome.responseCode, message: outcome.responseMessage, at: now)
        case .pinRequired where record.pinVerified:
            approve(&record, by: event, code: "00", message: "Approved", at: now)
        case .pinRequired:
            record.move(to: .PIN_REQUESTED, by: event, at: now)
            record.responseCode = outcome.responseCode
            record.responseMessage = outcome.responseMessage
        case .authorisationTimeout:
            record.move(to: .ONGOING, by: event, at: now)
            record.responseCode = outcome.responseCode
            record.responseMessage = outcome.responseMessage
        default:
            finish(&record, status: outcome.status, by: event, code: outcome.responseCode, message: outcome.responseMessage, at: now)
        }
    }

    package func approve(_ record: inout TransactionRecord, by event: TransactionStateMachine.Event, code: String, message: String, at now: Int64) {
        // Worldline clears an authorised card payment at once: AUTHORIZED never rests.
        record.move(to: .CLEARED, by: event, at: now)
        record.authID = digits(6)
        record.rrn = digits(12)
        record.cid = "40"
        record.cryptogram = Hex.encode(random.bytes(count: 8)).uppercased()
        record.responseCode = code
        record.responseMessage = message
    }

    /// Ends a transaction in a status at rest, with the response it carries.
    package func finish(
        _ record: inout TransactionRecord, status: TransactionStatus, by event: TransactionStateMachine.Event, code: String?, message: String,
        at now: Int64
    ) {
        record.move(to: status, by: event, at: now)
        record.responseCode = code
        record.responseMessage = message
        if record.cryptogram == nil, record.maskedPAN != nil {
            record.cid = "00"
            record.cryptogram = Hex.encode(random.bytes(count: 8)).uppercased()
        }
    }

    package init(lifecycle: Lifecycle, data: PaymentData, random: any RandomSource, outbox: Outbox) {
        self.lifecycle = lifecycle
        self.data = data
        self.random = random
        self.outbox = outbox
    }
}
