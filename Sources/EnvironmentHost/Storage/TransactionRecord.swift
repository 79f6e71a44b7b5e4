import Foundation
import SandboxCore
import SandboxStore
import SandboxWire

/// One row of `transactions`, as the payment code reads and writes it.
struct TransactionRecord: Sendable {
    var id: String
    var terminalID: String
    var merchantID: String
    var type: TransactionType
    var status: TransactionStatus
    var paymentMethod: PaymentMethod = .CARD
    var amount: Int
    var tipAmount: Int?
    var currency: String
    var reference: String?
    var createdAt: Int64
    var updatedAt: Int64
    var pendingUntil: Int64?
    var cardBrand: String?
    var maskedPAN: String?
    var panHash: String?
    var cardExpiry: String?
    var cardCountry: String?
    var aid: String?
    var applicationLabel: String?
    /// How the card verifies its holder (`none` / `onlinePin`).
    var cvm: String?
    var pinVerified = false
    var authID: String?
    var rrn: String?
    var cid: String?
    var cryptogram: String?
    var responseCode: String?
    var responseMessage: String?
    var originalID: String?
    var refundedAt: Int64?
    var refundedMaskedPAN: String?
    var refundAmount: Int?
    var dccStatus: DCCStatus?
    var dccAmount: Int?
    var dccCurrency: String?
    var dccRate: Double?
    var dccMarkup: Double?
    var dccECB: Bool?
    var retries = 0
    /// Where this payment's webhooks go (MONEI's `callbackUrl`); nil: the merchant's endpoint.
    var callbackURL: String?
    /// A QR payment's brand display name (its brand is ``cardBrand``, the history's `cardType`).
    var apmBrandFullName: String?
    /// What the QR encodes: the wallet's pay page of the order.
    var apmQRCode: String?
    /// When the host closes the order (or gives up on a refund).
    var apmExpiresAt: Int64?
    /// The wallet's id of the payment (or of the refund) once done.
    var apmProviderReference: String?
    /// Why the wallet declined (an ``APMDeclineReason`` raw value).
    var apmDeclineReason: String?
    /// The webhook event type this change calls for when its status alone does not tell (a
    /// reversal by the user); not stored.
    var eventType: String?
    /// Insertion order; 0 until saved.
    var seq: Int64 = 0
    /// Whether the last ``save(_:at:)`` inserted the row (in the write transaction still open): an
    /// inserted row has the highest `seq` there is, so it is its terminal's latest of its type.
    private(set) var isInsertedNow = false

    /// The part of the amount the magic-amount rules read (the tip is not part of it).
    var baseAmount: Int { amount - (tipAmount ?? 0) }

    init(
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

    init(_ row: Row) throws {
        seq = try row["seq"]
        id = try row["id"]
        terminalID = try row["terminal_id"]
        merchantID = try row["merchant_id"]
        type = TransactionType(rawValue: try row["type"]) ?? .AUTH
        status = TransactionStatus(rawValue: try row["status"]) ?? .ERROR
        paymentMethod = PaymentMethod(rawValue: try row["payment_method"]) ?? .UNKNOWN
        amount = try row["amount"]
        tipAmount = try row["tip_amount"]
        currency = try row["currency"]
        reference = try row["reference"]
        createdAt = try row["created_at"]
        updatedAt = try row["updated_at"]
        pendingUntil = try row["pending_until"]
        cardBrand = try row["card_brand"]
        maskedPAN = try row["masked_pan"]
        panHash = try row["pan_hash"]
        cardExpiry = try row["card_expiry"]
        cardCountry = try row["card_country"]
        aid = try row["aid"]
        applicationLabel = try row["application_label"]
        cvm = try row["cvm"]
        pinVerified = try row["pin_verified"]
        authID = try row["auth_id"]
        rrn = try row["rrn"]
        cid = try row["cid"]
        cryptogram = try row["cryptogram"]
        responseCode = try row["response_code"]
        responseMessage = try row["response_message"]
        originalID = try row["original_id"]
        refundedAt = try row["refunded_at"]
        refundedMaskedPAN = try row["refunded_masked_pan"]
        refundAmount = try row["refund_amount"]
        dccStatus = (try row["dcc_status"] as String?).flatMap(DCCStatus.init(rawValue:))
        dccAmount = try row["dcc_amount"]
        dccCurrency = try row["dcc_currency"]
        dccRate = try row["dcc_rate"]
        dccMarkup = try row["dcc_markup"]
        dccECB = try row["dcc_ecb"]
        retries = try row["retries"]
        callbackURL = try row["callback_url"]
        apmBrandFullName = try row["apm_brand_full_name"]
        apmQRCode = try row["apm_qr_code"]
        apmExpiresAt = try row["apm_expires_at"]
        apmProviderReference = try row["apm_provider_reference"]
        apmDeclineReason = try row["apm_decline_reason"]
    }

    private static let columns = [
        "id", "terminal_id", "merchant_id", "type", "status", "payment_method", "amount", "tip_amount", "currency",
        "reference", "created_at", "updated_at", "pending_until", "card_brand", "masked_pan", "pan_hash", "card_expiry",
        "card_country", "aid", "application_label", "cvm", "pin_verified", "auth_id", "rrn", "cid", "cryptogram", "response_code",
        "response_message", "original_id", "refunded_at", "refunded_masked_pan", "refund_amount", "dcc_status", "dcc_amount",
        "dcc_currency", "dcc_rate", "dcc_markup", "dcc_ecb", "retries", "callback_url", "apm_brand_full_name", "apm_qr_code",
        "apm_expires_at", "apm_provider_reference", "apm_decline_reason",
    ]

    private static let upsert =
        "INSERT INTO transactions (" + columns.joined(separator: ", ") + ") VALUES ("
        + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ") ON CONFLICT(id) DO UPDATE SET "
        + columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

    private var values: [DatabaseValue] {
        func text(_ value: String?) -> DatabaseValue { value.map(DatabaseValue.text) ?? .null }
        func integer(_ value: Int?) -> DatabaseValue { value.map { .integer(Int64($0)) } ?? .null }
        func integer(_ value: Int64?) -> DatabaseValue { value.map(DatabaseValue.integer) ?? .null }
        func real(_ value: Double?) -> DatabaseValue { value.map(DatabaseValue.real) ?? .null }
        return [
            .text(id), .text(terminalID), .text(merchantID), .text(type.rawValue), .text(status.rawValue),
            .text(paymentMethod.rawValue), .integer(Int64(amount)), integer(tipAmount), .text(currency), text(reference),
            .integer(createdAt), .integer(updatedAt), integer(pendingUntil), text(cardBrand), text(maskedPAN), text(panHash),
            text(cardExpiry), text(cardCountry), text(aid), text(applicationLabel), text(cvm), .integer(pinVerified ? 1 : 0), text(authID),
            text(rrn), text(cid), text(cryptogram), text(responseCode), text(responseMessage), text(originalID),
            integer(refundedAt), text(refundedMaskedPAN), integer(refundAmount), text(dccStatus?.rawValue), integer(dccAmount),
            text(dccCurrency), real(dccRate), real(dccMarkup), dccECB.map { .integer($0 ? 1 : 0) } ?? .null,
            .integer(Int64(retries)), text(callbackURL), text(apmBrandFullName), text(apmQRCode), integer(apmExpiresAt),
            text(apmProviderReference), text(apmDeclineReason),
        ]
    }

    mutating func save(_ db: Connection, at now: Int64) throws {
        updatedAt = now
        try db.run(Self.upsert, values)
        // A QR or BLIK deadline the wallet courier's sweep must apply when it comes.
        if paymentMethod != .CARD, pendingUntil != nil { db.notify(APMRepository.channel) }
        isInsertedNow = seq == 0
        if seq == 0 { seq = db.lastInsertRowID }
    }
}
