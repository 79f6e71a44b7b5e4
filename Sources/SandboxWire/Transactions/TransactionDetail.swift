import Foundation

/// The seed's `TransactionDetail`: everything the host knows about one transaction, as sale,
/// refund, reversal, DCC, PIN, last-transaction and details calls answer it; the host writes it
/// and the SDK reads it, so a field added here is added on both sides.
///
/// Field names are the seed's, `AID`, `CID` and `externalID` included; dates are ISO 8601
/// strings (see ``WireTime``); the currencies are ``TerminalCurrency`` objects as in
/// ``TerminalInfo``; and every optional field is written as `null`, never left out, so a
/// client always sees the seed model's 37 fields (`TransactionDetail+JSON.swift`). Reading
/// accepts an optional field absent or `null`. Amounts are integers in minor units.
///
/// ```json
/// { "transactionId": "a1f0…", "transactionStatus": "CLEARED", "transactionType": "AUTH",
///   "transactionAmount": 1250, "tipAmount": 250, "transactionDate": "2026-11-29T12:48:22.555Z",
///   "merchantId": "EU-M01", "terminalId": "EU-T0101", "cancellable": true,
///   "applicationLabel": "VISA DEBIT", "cardType": "VISA", "expiryDate": "2028-12-31T00:00:00.000Z",
///   "authId": "123456", "AID": "A0000000031010", "cardNumber": "476173******0011",
///   "responseCode": "00", "responseMsg": "Approved", "CID": "40", "applicationCryptogram": "…",
///   "externalID": "INV-000123", "retrievalRefNum": "633412345678", "refundedTransactionId": null,
///   "refundedDate": null, "refundedMaskedPan": null, "isReversalAvailable": true,
///   "paymentMethod": "CARD", "refundable": false, "ref1": null, "ref2": null,
///   "currency": { "code": "EUR", "name": "Euro", "unitLength": 2, "isoCode": 978, "exponent": 2 },
///   "dccStatus": null, "dccAmount": null, "dccCurrency": null, "dccExchangeRate": null,
///   "dccMarkup": null, "dccEcbIndicator": null, "transactionRetry": null }
/// ```
///
/// ```swift
/// for await result in sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil) {
///     if case .success(.completed(let detail)) = result {
///         print(detail.transactionStatus, detail.cardNumber, detail.AID ?? "-")
///     }
/// }
/// ```
///
/// The DCC fields follow the host's quote: `dccExchangeRate` is the base rate without the markup
/// and `dccMarkup` the markup in percent, so `dccAmount` is the transaction amount converted
/// at `dccExchangeRate × (1 + dccMarkup / 100)`, rounded half up in `dccCurrency`'s exponent.
public struct TransactionDetail: Codable, Sendable, Equatable, Hashable {
    public var transactionId: String
    public var transactionStatus: TransactionStatus
    public var transactionType: TransactionType
    /// The amount in minor units of ``currency``, tip included.
    public var transactionAmount: Int
    /// The tip in minor units, part of ``transactionAmount``.
    public var tipAmount: Int?
    public var transactionDate: Date
    public var merchantId: String
    public var terminalId: String
    /// Whether the sale can still be reversed (the SDK's `doReversal`): a sale waiting for the DCC
    /// choice, or the terminal's latest cleared sale within 30 minutes.
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
    /// On a refunded sale: when it was refunded.
    public var refundedDate: Date?
    /// On a refunded sale: the masked PAN the refund went to.
    public var refundedMaskedPan: String?
    public var isReversalAvailable: Bool?
    public var paymentMethod: PaymentMethod
    public var refundable: Bool?
    public var ref1: String?
    public var ref2: String?
    public var currency: TerminalCurrency?
    public var dccStatus: DCCStatus?
    /// The converted amount in minor units of ``dccCurrency``: the offer's, which stays when the
    /// cardholder declines it (``dccStatus`` says which currency was paid in).
    public var dccAmount: Int?
    public var dccCurrency: TerminalCurrency?
    /// The base exchange rate, without the markup.
    public var dccExchangeRate: Double?
    /// The markup over ``dccExchangeRate``, in percent.
    public var dccMarkup: Double?
    public var dccEcbIndicator: Bool?
    public var transactionRetry: Int?

    /// A transaction, fields in the seed's order; every optional one defaults to nil.
    public init(
        transactionId: String, transactionStatus: TransactionStatus, transactionType: TransactionType,
        transactionAmount: Int, tipAmount: Int? = nil, transactionDate: Date, merchantId: String, terminalId: String,
        cancellable: Bool, applicationLabel: String? = nil, cardType: String? = nil, expiryDate: Date? = nil,
        authId: String, AID: String? = nil, cardNumber: String, responseCode: String? = nil, responseMsg: String? = nil,
        CID: String? = nil, applicationCryptogram: String? = nil, externalID: String? = nil, retrievalRefNum: String? = nil,
        refundedTransactionId: String? = nil, refundedDate: Date? = nil, refundedMaskedPan: String? = nil,
        isReversalAvailable: Bool? = nil, paymentMethod: PaymentMethod, refundable: Bool? = nil, ref1: String? = nil,
        ref2: String? = nil, currency: TerminalCurrency? = nil, dccStatus: DCCStatus? = nil, dccAmount: Int? = nil,
        dccCurrency: TerminalCurrency? = nil, dccExchangeRate: Double? = nil, dccMarkup: Double? = nil,
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

    /// The seed's field names, in the seed's order.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case transactionId, transactionStatus, transactionType, transactionAmount, tipAmount, transactionDate
        case merchantId, terminalId, cancellable, applicationLabel, cardType, expiryDate, authId, AID, cardNumber
        case responseCode, responseMsg, CID, applicationCryptogram, externalID, retrievalRefNum, refundedTransactionId
        case refundedDate, refundedMaskedPan, isReversalAvailable, paymentMethod, refundable, ref1, ref2, currency
        case dccStatus, dccAmount, dccCurrency, dccExchangeRate, dccMarkup, dccEcbIndicator, transactionRetry
    }

    /// Reads a detail; optional fields may be absent or `null`, dates are ISO 8601 strings.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transactionId = try c.decode(String.self, forKey: .transactionId)
        transactionStatus = try c.decode(TransactionStatus.self, forKey: .transactionStatus)
        transactionType = try c.decode(TransactionType.self, forKey: .transactionType)
        transactionAmount = try c.decode(Int.self, forKey: .transactionAmount)
        tipAmount = try c.decodeIfPresent(Int.self, forKey: .tipAmount)
        transactionDate = try c.decodeWireDate(forKey: .transactionDate)
        merchantId = try c.decode(String.self, forKey: .merchantId)
        terminalId = try c.decode(String.self, forKey: .terminalId)
        cancellable = try c.decode(Bool.self, forKey: .cancellable)
        applicationLabel = try c.decodeIfPresent(String.self, forKey: .applicationLabel)
        cardType = try c.decodeIfPresent(String.self, forKey: .cardType)
        expiryDate = try c.decodeWireDateIfPresent(forKey: .expiryDate)
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
        refundedDate = try c.decodeWireDateIfPresent(forKey: .refundedDate)
        refundedMaskedPan = try c.decodeIfPresent(String.self, forKey: .refundedMaskedPan)
        isReversalAvailable = try c.decodeIfPresent(Bool.self, forKey: .isReversalAvailable)
        paymentMethod = try c.decode(PaymentMethod.self, forKey: .paymentMethod)
        refundable = try c.decodeIfPresent(Bool.self, forKey: .refundable)
        ref1 = try c.decodeIfPresent(String.self, forKey: .ref1)
        ref2 = try c.decodeIfPresent(String.self, forKey: .ref2)
        currency = try c.decodeIfPresent(TerminalCurrency.self, forKey: .currency)
        dccStatus = try c.decodeIfPresent(DCCStatus.self, forKey: .dccStatus)
        dccAmount = try c.decodeIfPresent(Int.self, forKey: .dccAmount)
        dccCurrency = try c.decodeIfPresent(TerminalCurrency.self, forKey: .dccCurrency)
        dccExchangeRate = try c.decodeIfPresent(Double.self, forKey: .dccExchangeRate)
        dccMarkup = try c.decodeIfPresent(Double.self, forKey: .dccMarkup)
        dccEcbIndicator = try c.decodeIfPresent(Bool.self, forKey: .dccEcbIndicator)
        transactionRetry = try c.decodeIfPresent(Int.self, forKey: .transactionRetry)
    }
}
