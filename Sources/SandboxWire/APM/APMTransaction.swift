import Foundation

/// The seed's `APMTransaction`: one QR-wallet (or BLIK) payment or refund as the host answers it
/// and the SDK's `APMTransactionProcessEvent` carries it.
///
/// The seed names the type but not its fields; these are the sandbox's (docs/qr-payments.md).
/// Statuses are the seed's ``TransactionStatus``: `NEW` while the QR waits to be scanned,
/// `ONGOING` once the customer opened it (or a refund was sent to the provider), then one of
/// `CLEARED`, `DECLINED` (with ``declineReason``), `TIMEOUT`, `USER_CANCELLED` or `ERROR`.
/// Every optional field is written, as `null` when empty.
///
/// ```json
/// { "transactionId": "b07c…", "transactionStatus": "NEW", "transactionType": "AUTH",
///   "paymentMethod": "QRCODE", "brand": "ALIPAY", "brandFullName": "Alipay+",
///   "transactionAmount": 1250, "tipAmount": null, "currency": { "code": "EUR", … },
///   "transactionDate": "2026-12-02T10:00:00.000Z", "expiresAt": "2026-12-02T10:05:00.000Z",
///   "merchantId": "EU-M01", "terminalId": "EU-T0101", "externalID": "INV-1",
///   "qrCode": "http://127.0.0.1:8110/pay/b07c…", "qrCodeSVG": "<svg …>",
///   "providerReference": null, "responseCode": null, "responseMsg": null, "declineReason": null,
///   "refundedTransactionId": null, "refundable": false }
/// ```
public struct APMTransaction: Codable, Sendable, Equatable, Hashable {
    public var transactionId: String
    public var transactionStatus: TransactionStatus
    /// `AUTH` for a payment, `REFUND` for a refund.
    public var transactionType: TransactionType
    /// `QRCODE` or `BLIK`.
    public var paymentMethod: PaymentMethod
    /// The wallet brand the customer pays with (the terminal's `apmConfig` entry).
    public var brand: APMPaymentData.APMBrand?
    public var brandFullName: String?
    /// Minor units of ``currency``, tip included.
    public var transactionAmount: Int
    public var tipAmount: Int?
    public var currency: TerminalCurrency
    public var transactionDate: Date
    /// When the host closes the order (`apmTimeout` after it was made; a refund: `apmRefundTimeout`).
    public var expiresAt: Date?
    public var merchantId: String
    public var terminalId: String
    /// The merchant's reference.
    public var externalID: String?
    /// What the QR encodes: the wallet simulator's pay page for this order. Nil for a refund.
    public var qrCode: String?
    /// The QR as an SVG image, made by the host (so the device needs no QR library).
    public var qrCodeSVG: String?
    /// The wallet's own id of the payment once it is paid (or of the refund once done).
    public var providerReference: String?
    public var responseCode: String?
    public var responseMsg: String?
    /// On `DECLINED`: why (``APMDeclineReason`` raw value, e.g. `insufficient_funds`).
    public var declineReason: String?
    /// For a refund: the payment it refunds.
    public var refundedTransactionId: String?
    /// On a cleared payment: whether some of it can still be refunded.
    public var refundable: Bool?

    public init(
        transactionId: String, transactionStatus: TransactionStatus, transactionType: TransactionType,
        paymentMethod: PaymentMethod, brand: APMPaymentData.APMBrand? = nil, brandFullName: String? = nil,
        transactionAmount: Int, tipAmount: Int? = nil, currency: TerminalCurrency, transactionDate: Date,
        expiresAt: Date? = nil, merchantId: String, terminalId: String, externalID: String? = nil, qrCode: String? = nil,
        qrCodeSVG: String? = nil, providerReference: String? = nil, responseCode: String? = nil, responseMsg: String? = nil,
        declineReason: String? = nil, refundedTransactionId: String? = nil, refundable: Bool? = nil
    ) {
        self.transactionId = transactionId
        self.transactionStatus = transactionStatus
        self.transactionType = transactionType
        self.paymentMethod = paymentMethod
        self.brand = brand
        self.brandFullName = brandFullName
        self.transactionAmount = transactionAmount
        self.tipAmount = tipAmount
        self.currency = currency
        self.transactionDate = transactionDate
        self.expiresAt = expiresAt
        self.merchantId = merchantId
        self.terminalId = terminalId
        self.externalID = externalID
        self.qrCode = qrCode
        self.qrCodeSVG = qrCodeSVG
        self.providerReference = providerReference
        self.responseCode = responseCode
        self.responseMsg = responseMsg
        self.declineReason = declineReason
        self.refundedTransactionId = refundedTransactionId
        self.refundable = refundable
    }

    public enum CodingKeys: String, CodingKey, CaseIterable {
        case transactionId, transactionStatus, transactionType, paymentMethod, brand, brandFullName
        case transactionAmount, tipAmount, currency, transactionDate, expiresAt, merchantId, terminalId, externalID
        case qrCode, qrCodeSVG, providerReference, responseCode, responseMsg, declineReason, refundedTransactionId
        case refundable
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transactionId = try c.decode(String.self, forKey: .transactionId)
        transactionStatus = try c.decode(TransactionStatus.self, forKey: .transactionStatus)
        transactionType = try c.decode(TransactionType.self, forKey: .transactionType)
        paymentMethod = try c.decode(PaymentMethod.self, forKey: .paymentMethod)
        brand = try c.decodeIfPresent(APMPaymentData.APMBrand.self, forKey: .brand)
        brandFullName = try c.decodeIfPresent(String.self, forKey: .brandFullName)
        transactionAmount = try c.decode(Int.self, forKey: .transactionAmount)
        tipAmount = try c.decodeIfPresent(Int.self, forKey: .tipAmount)
        currency = try c.decode(TerminalCurrency.self, forKey: .currency)
        transactionDate = try c.decodeWireDate(forKey: .transactionDate)
        expiresAt = try c.decodeWireDateIfPresent(forKey: .expiresAt)
        merchantId = try c.decode(String.self, forKey: .merchantId)
        terminalId = try c.decode(String.self, forKey: .terminalId)
        externalID = try c.decodeIfPresent(String.self, forKey: .externalID)
        qrCode = try c.decodeIfPresent(String.self, forKey: .qrCode)
        qrCodeSVG = try c.decodeIfPresent(String.self, forKey: .qrCodeSVG)
        providerReference = try c.decodeIfPresent(String.self, forKey: .providerReference)
        responseCode = try c.decodeIfPresent(String.self, forKey: .responseCode)
        responseMsg = try c.decodeIfPresent(String.self, forKey: .responseMsg)
        declineReason = try c.decodeIfPresent(String.self, forKey: .declineReason)
        refundedTransactionId = try c.decodeIfPresent(String.self, forKey: .refundedTransactionId)
        refundable = try c.decodeIfPresent(Bool.self, forKey: .refundable)
    }

    /// Whether the host has decided: nothing about this transaction changes any more.
    public var isFinal: Bool { !transactionStatus.isInFlight }

    /// The seed's "native functionality to convert it to TransactionDetail": the same
    /// transaction as the host's history and details calls answer it (card fields empty).
    public func toTransactionDetail() -> TransactionDetail {
        TransactionDetail(
            transactionId: transactionId, transactionStatus: transactionStatus, transactionType: transactionType,
            transactionAmount: transactionAmount, tipAmount: tipAmount, transactionDate: transactionDate,
            merchantId: merchantId, terminalId: terminalId, cancellable: false, cardType: brand?.rawValue,
            authId: providerReference ?? "", cardNumber: "", responseCode: responseCode, responseMsg: responseMsg,
            externalID: externalID, refundedTransactionId: refundedTransactionId, isReversalAvailable: false,
            paymentMethod: paymentMethod, refundable: refundable, ref1: externalID, currency: currency,
            // The host's details write the reference in ref1 too, and a QR payment never retries a PIN.
            transactionRetry: 0)
    }
}
