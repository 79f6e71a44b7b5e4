import Foundation

/// Everything known about one transaction (seed "Transaction Detail").
///
/// Decoded from the host's JSON with the seed's keys, including `AID` and `CID`. A field is
/// mandatory when it cannot be `nil`. Amounts are integers in minor units.
///
/// ```swift
/// for await result in sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil) {
///     if case .success(.completed(let detail)) = result {
///         print(detail.transactionStatus, detail.cardNumber, detail.AID ?? "-")
///     }
/// }
/// ```
public struct TransactionDetail: Codable, Sendable, Equatable, Hashable {
    public var transactionId: String
    public var transactionStatus: TransactionStatus
    public var transactionType: TransactionType
    public var transactionAmount: Int
    public var tipAmount: Int?
    public var transactionDate: Date
    public var merchantId: String
    public var terminalId: String
    /// Whether the sale can still be reversed (``TapOnMobile/doReversal(transactionId:isCancelledByUser:)``).
    public var cancellable: Bool
    public var applicationLabel: String?
    /// The card brand, `VISA`, `MASTERCARD` …
    public var cardType: String?
    public var expiryDate: Date?
    public var authId: String
    /// The EMV application identifier.
    public var AID: String?
    /// The masked card number, `476173******0011`.
    public var cardNumber: String
    public var responseCode: String?
    public var responseMsg: String?
    /// The cryptogram information data.
    public var CID: String?
    public var applicationCryptogram: String?
    /// The merchant's reference.
    public var externalID: String?
    public var retrievalRefNum: String?
    /// For a refund, the sale it refunds.
    public var refundedTransactionId: String?
    public var refundedDate: Date?
    public var refundedMaskedPan: String?
    public var isReversalAvailable: Bool?
    public var paymentMethod: PaymentMethod
    public var refundable: Bool?
    public var ref1: String?
    public var ref2: String?
    public var currency: Currency?
    public var dccStatus: DCCStatus?
    /// The amount in the card's currency, in its minor units.
    public var dccAmount: Int?
    public var dccCurrency: Currency?
    public var dccExchangeRate: Double?
    public var dccMarkup: Double?
    public var dccEcbIndicator: Bool?
    public var transactionRetry: Int?

    public init(
        transactionId: String, transactionStatus: TransactionStatus, transactionType: TransactionType,
        transactionAmount: Int, tipAmount: Int? = nil, transactionDate: Date, merchantId: String, terminalId: String,
        cancellable: Bool, applicationLabel: String? = nil, cardType: String? = nil, expiryDate: Date? = nil,
        authId: String, AID: String? = nil, cardNumber: String, responseCode: String? = nil, responseMsg: String? = nil,
        CID: String? = nil, applicationCryptogram: String? = nil, externalID: String? = nil, retrievalRefNum: String? = nil,
        refundedTransactionId: String? = nil, refundedDate: Date? = nil, refundedMaskedPan: String? = nil,
        isReversalAvailable: Bool? = nil, paymentMethod: PaymentMethod, refundable: Bool? = nil, ref1: String? = nil,
        ref2: String? = nil, currency: Currency? = nil, dccStatus: DCCStatus? = nil, dccAmount: Int? = nil,
        dccCurrency: Currency? = nil, dccExchangeRate: Double? = nil, dccMarkup: Double? = nil,
        dccEcbIndicator: Bool? = nil, transactionRetry: Int? = nil
    ) {
        self.transactionId = transactionId
        self.transactionStatus = transactionStatus
        self.transactionType = transactionType
        self.transactionAmount = transactionAmount
        self.tipAmount = tipAmount
        self.transactionDate = transactionDate
        self.merchantId = merchantId
        self.terminalId = terminalId
        self.cancellable = cancellable
        self.applicationLabel = applicationLabel
        self.cardType = cardType
        self.expiryDate = expiryDate
        self.authId = authId
        self.AID = AID
        self.cardNumber = cardNumber
        self.responseCode = responseCode
        self.responseMsg = responseMsg
        self.CID = CID
        self.applicationCryptogram = applicationCryptogram
        self.externalID = externalID
        self.retrievalRefNum = retrievalRefNum
        self.refundedTransactionId = refundedTransactionId
        self.refundedDate = refundedDate
        self.refundedMaskedPan = refundedMaskedPan
        self.isReversalAvailable = isReversalAvailable
        self.paymentMethod = paymentMethod
        self.refundable = refundable
        self.ref1 = ref1
        self.ref2 = ref2
        self.currency = currency
        self.dccStatus = dccStatus
        self.dccAmount = dccAmount
        self.dccCurrency = dccCurrency
        self.dccExchangeRate = dccExchangeRate
        self.dccMarkup = dccMarkup
        self.dccEcbIndicator = dccEcbIndicator
        self.transactionRetry = transactionRetry
    }

    public enum CodingKeys: String, CodingKey, CaseIterable {
        case transactionId, transactionStatus, transactionType, transactionAmount, tipAmount, transactionDate
        case merchantId, terminalId, cancellable, applicationLabel, cardType, expiryDate, authId, AID, cardNumber
        case responseCode, responseMsg, CID, applicationCryptogram, externalID, retrievalRefNum, refundedTransactionId
        case refundedDate, refundedMaskedPan, isReversalAvailable, paymentMethod, refundable, ref1, ref2, currency
        case dccStatus, dccAmount, dccCurrency, dccExchangeRate, dccMarkup, dccEcbIndicator, transactionRetry
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transactionId = try c.decode(String.self, forKey: .transactionId)
        transactionStatus = try c.decode(TransactionStatus.self, forKey: .transactionStatus)
        transactionType = try c.decode(TransactionType.self, forKey: .transactionType)
        transactionAmount = try c.decode(Int.self, forKey: .transactionAmount)
        tipAmount = try c.decodeIfPresent(Int.self, forKey: .tipAmount)
        transactionDate = try c.decodeDate(forKey: .transactionDate)
        merchantId = try c.decode(String.self, forKey: .merchantId)
        terminalId = try c.decode(String.self, forKey: .terminalId)
        cancellable = try c.decode(Bool.self, forKey: .cancellable)
        applicationLabel = try c.decodeIfPresent(String.self, forKey: .applicationLabel)
        cardType = try c.decodeIfPresent(String.self, forKey: .cardType)
        expiryDate = try c.decodeDateIfPresent(forKey: .expiryDate)
        authId = try c.decode(String.self, forKey: .authId)
        AID = try c.decodeIfPresent(String.self, forKey: .AID)
        cardNumber = try c.decode(String.self, forKey: .cardNumber)
        responseCode = try c.decodeIfPresent(String.self, forKey: .responseCode)
        responseMsg = try c.decodeIfPresent(String.self, forKey: .responseMsg)
        CID = try c.decodeIfPresent(String.self, forKey: .CID)
        applicationCryptogram = try c.decodeIfPresent(String.self, forKey: .applicationCryptogram)
        externalID = try c.decodeIfPresent(String.self, forKey: .externalID)
        retrievalRefNum = try c.decodeIfPresent(String.self, forKey: .retrievalRefNum)
        refundedTransactionId = try c.decodeIfPresent(String.self, forKey: .refundedTransactionId)
        refundedDate = try c.decodeDateIfPresent(forKey: .refundedDate)
        refundedMaskedPan = try c.decodeIfPresent(String.self, forKey: .refundedMaskedPan)
        isReversalAvailable = try c.decodeIfPresent(Bool.self, forKey: .isReversalAvailable)
        paymentMethod = try c.decode(PaymentMethod.self, forKey: .paymentMethod)
        refundable = try c.decodeIfPresent(Bool.self, forKey: .refundable)
        ref1 = try c.decodeIfPresent(String.self, forKey: .ref1)
        ref2 = try c.decodeIfPresent(String.self, forKey: .ref2)
        currency = try c.decodeIfPresent(Currency.self, forKey: .currency)
        dccStatus = try c.decodeIfPresent(DCCStatus.self, forKey: .dccStatus)
        dccAmount = try c.decodeIfPresent(Int.self, forKey: .dccAmount)
        dccCurrency = try c.decodeIfPresent(Currency.self, forKey: .dccCurrency)
        dccExchangeRate = try c.decodeIfPresent(Double.self, forKey: .dccExchangeRate)
        dccMarkup = try c.decodeIfPresent(Double.self, forKey: .dccMarkup)
        dccEcbIndicator = try c.decodeIfPresent(Bool.self, forKey: .dccEcbIndicator)
        transactionRetry = try c.decodeIfPresent(Int.self, forKey: .transactionRetry)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(transactionId, forKey: .transactionId)
        try c.encode(transactionStatus, forKey: .transactionStatus)
        try c.encode(transactionType, forKey: .transactionType)
        try c.encode(transactionAmount, forKey: .transactionAmount)
        try c.encodeIfPresent(tipAmount, forKey: .tipAmount)
        try c.encodeDate(transactionDate, forKey: .transactionDate)
        try c.encode(merchantId, forKey: .merchantId)
        try c.encode(terminalId, forKey: .terminalId)
        try c.encode(cancellable, forKey: .cancellable)
        try c.encodeIfPresent(applicationLabel, forKey: .applicationLabel)
        try c.encodeIfPresent(cardType, forKey: .cardType)
        try c.encodeDate(expiryDate, forKey: .expiryDate)
        try c.encode(authId, forKey: .authId)
        try c.encodeIfPresent(AID, forKey: .AID)
        try c.encode(cardNumber, forKey: .cardNumber)
        try c.encodeIfPresent(responseCode, forKey: .responseCode)
        try c.encodeIfPresent(responseMsg, forKey: .responseMsg)
        try c.encodeIfPresent(CID, forKey: .CID)
        try c.encodeIfPresent(applicationCryptogram, forKey: .applicationCryptogram)
        try c.encodeIfPresent(externalID, forKey: .externalID)
        try c.encodeIfPresent(retrievalRefNum, forKey: .retrievalRefNum)
        try c.encodeIfPresent(refundedTransactionId, forKey: .refundedTransactionId)
        try c.encodeDate(refundedDate, forKey: .refundedDate)
        try c.encodeIfPresent(refundedMaskedPan, forKey: .refundedMaskedPan)
        try c.encodeIfPresent(isReversalAvailable, forKey: .isReversalAvailable)
        try c.encode(paymentMethod, forKey: .paymentMethod)
        try c.encodeIfPresent(refundable, forKey: .refundable)
        try c.encodeIfPresent(ref1, forKey: .ref1)
        try c.encodeIfPresent(ref2, forKey: .ref2)
        try c.encodeIfPresent(currency, forKey: .currency)
        try c.encodeIfPresent(dccStatus, forKey: .dccStatus)
        try c.encodeIfPresent(dccAmount, forKey: .dccAmount)
        try c.encodeIfPresent(dccCurrency, forKey: .dccCurrency)
        try c.encodeIfPresent(dccExchangeRate, forKey: .dccExchangeRate)
        try c.encodeIfPresent(dccMarkup, forKey: .dccMarkup)
        try c.encodeIfPresent(dccEcbIndicator, forKey: .dccEcbIndicator)
        try c.encodeIfPresent(transactionRetry, forKey: .transactionRetry)
    }
}
