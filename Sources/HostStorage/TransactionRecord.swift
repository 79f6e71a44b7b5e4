import Foundation
import SandboxCore
import SandboxStore
import SandboxWire

/// One row of `transactions`, as the payment code reads and writes it.
package struct TransactionRecord: Sendable {
    package var id: String
    package var terminalID: String
    package var merchantID: String
    package var type: TransactionType
    package var status: TransactionStatus
    package var paymentMethod: PaymentMethod = .CARD
    package var amount: Int
    package var tipAmount: Int?
    package var currency: String
    package var reference: String?
    package var createdAt: Int64
    package var updatedAt: Int64
    package var pendingUntil: Int64?
    package var cardBrand: String?
    package var maskedPAN: String?
    package var panHash: String?
    package var cardExpiry: String?
    package var cardCountry: String?
    package var aid: String?
    package var applicationLabel: String?
    /// How the card verifies its holder (`none` / `onlinePin`).
    package var cvm: String?
    package var pinVerified = false
    package var authID: String?
    package var rrn: String?
    package var cid: String?
    package var cryptogram: String?
    package var responseCode: String?
    package var responseMessage: String?
    package var originalID: String?
    package var refundedAt: Int64?
    package var refundedMaskedPAN: String?
    package var refundAmount: Int?
    package var dccStatus: DCCStatus?
    package var dccAmount: Int?
    package var dccCurrency: String?
    package var dccRate: Double?
    package var dccMarkup: Double?
    package var dccECB: Bool?
    package var retries = 0
    /// Where this payment's webhooks go (MONEI's `callbackUrl`); nil: the merchant's endpoint.
    package var callbackURL: String?
    /// A QR payment's brand display name (its brand is ``cardBrand``, the history's `cardType`).
    package var apmBrandFullName: String?
    /// What the QR encodes: the wallet's pay page of the order.
    package var apmQRCode: String?
    /// When the host closes the order (or gives up on a refund).
    package var apmExpiresAt: Int64?
    /// The wallet's id of the payment (or of the refund) once done.
    package var apmProviderReference: String?
    /// Why the wallet declined (an ``APMDeclineReason`` raw value).
    package var apmDeclineReason: String?
    /// The webhook event type this change calls for when its status alone does not tell (a
    /// reversal by the user); not stored.
    package var eventType: String?
    /// Insertion order; 0 until saved.
    package var seq: Int64 = 0
    /// Whether the last ``save(_:at:)`` inserted the row (in the write transaction still open): an
    /// inserted row has the highest `seq` there is, so it is its terminal's latest of its type.
    package private(set) var isInsertedNow = false

    /// The part of the amount the magic-amount rules read (the tip is not part of it).
    package var baseAmount: Int { amount - (tipAmount ?? 0) }

    package init(
        id: String, terminalID: String, merchantID: String, type: TransactionType, status: TransactionStatus, amount: Int,
        tipAmount: Int?, currency: String, reference: String?, at now: Int64
    ) {
        self.id = id
        self.terminalID = terminalID
        self.merchantID = merchantID
        self.type = type
        self.status = status
        self.amount = amount
        self.tipAmount = tipAmount
        self.currency = currency
        self.reference = reference
        self.createdAt = now
        self.updatedAt = now
    }

    /// A record read from a row of `transactions` (every column of ``table``, and `seq`).
    package init(_ row: Row) throws {
        self.init(id: "", terminalID: "", merchantID: "", type: .AUTH, status: .ERROR, amount: 0, tipAmount: nil, currency: "", reference: nil, at: 0)
        try Self.table.read(row, into: &self)
        seq = try row["seq"]
    }

    /// Every stored column beside the property it holds: reading, writing and the column list
    /// come from here (`seq` is the table's own, ``eventType`` and ``isInsertedNow`` are not stored).
    package static let table = ColumnTable<TransactionRecord>("transactions", [
        Column("id", \.id), Column("terminal_id", \.terminalID), Column("merchant_id", \.merchantID),
        Column("type", \.type, unknown: .AUTH), Column("status", \.status, unknown: .ERROR),
        Column("payment_method", \.paymentMethod, unknown: .UNKNOWN),
        Column("amount", \.amount), Column("tip_amount", \.tipAmount), Column("currency", \.currency), Column("reference", \.reference),
        Column("created_at", \.createdAt), Column("updated_at", \.updatedAt), Column("pending_until", \.pendingUntil),
        Column("card_brand", \.cardBrand), Column("masked_pan", \.maskedPAN), Column("pan_hash", \.panHash),
        Column("card_expiry", \.cardExpiry), Column("card_country", \.cardCountry), Column("aid", \.aid),
        Column("application_label", \.applicationLabel), Column("cvm", \.cvm), Column("pin_verified", \.pinVerified),
        Column("auth_id", \.authID), Column("rrn", \.rrn), Column("cid", \.cid), Column("cryptogram", \.cryptogram),
        Column("response_code", \.responseCode), Column("response_message", \.responseMessage), Column("original_id", \.originalID),
        Column("refunded_at", \.refundedAt), Column("refunded_masked_pan", \.refundedMaskedPAN), Column("refund_amount", \.refundAmount),
        Column("dcc_status", \.dccStatus), Column("dcc_amount", \.dccAmount), Column("dcc_currency", \.dccCurrency),
        Column("dcc_rate", \.dccRate), Column("dcc_markup", \.dccMarkup), Column("dcc_ecb", \.dccECB), Column("retries", \.retries),
        Column("callback_url", \.callbackURL), Column("apm_brand_full_name", \.apmBrandFullName), Column("apm_qr_code", \.apmQRCode),
        Column("apm_expires_at", \.apmExpiresAt), Column("apm_provider_reference", \.apmProviderReference),
        Column("apm_decline_reason", \.apmDeclineReason),
    ])

    private static let upsert = table.upsert(key: "id")
    /// The same, answering the row's `seq` (one round trip on PostgreSQL, where asking for the last
    /// inserted id is a second one).
    private static let upsertReturningSeq = upsert + " RETURNING seq"

    package mutating func save(_ db: Connection, at now: Int64) throws {
        updatedAt = now
        if seq == 0 {
            seq = try db.query(Self.upsertReturningSeq, Self.table.values(of: self))[0]["seq"]
            isInsertedNow = true
        } else {
            try db.run(Self.upsert, Self.table.values(of: self))
            isInsertedNow = false
        }
        // A QR or BLIK deadline the wallet courier's sweep must apply when it comes.
        if paymentMethod != .CARD, pendingUntil != nil { db.notify(APMRepository.channel) }
    }
}
