import Foundation

/// The seed's `TransactionDetail`: everything the host knows about one transaction, as sale,
/// refund, reversal, DCC, PIN, last-transaction and details calls answer it.
///
/// Field names are the seed's, `AID`, `CID` and `externalID` included; dates are ISO 8601
/// strings (see `WireTime`); the currencies are ``TerminalCurrency`` objects as in
/// `TerminalInfo`; and every optional field is written as `null`, never left out, so a
/// client always sees the seed model's 37 fields.
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
/// The DCC fields follow ``DCCQuote``: `dccExchangeRate` is the base rate without the markup
/// and `dccMarkup` the markup in percent, so `dccAmount` is the transaction amount converted
/// at `dccExchangeRate × (1 + dccMarkup / 100)`, rounded half up in `dccCurrency`'s exponent.
public struct TransactionDetail: Codable, Sendable, Equatable {
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
    /// Whether the transaction can still be reversed: a sale waiting for the DCC choice, or the
    /// terminal's latest cleared sale within 30 minutes.
    public var cancellable: Bool
    public var applicationLabel: String?
    /// The card brand, e.g. `VISA`.
    public var cardType: String?
    public var expiryDate: Date?
    public var authId: String
    /// The card application's identifier (`AID` on the wire).
    public var aid: String?
    /// The masked PAN.
    public var cardNumber: String
    public var responseCode: String?
    /// The response message (`responseMsg` on the wire).
    public var responseMsg: String?
    /// Cryptogram Information Data (`CID` on the wire).
    public var cid: String?
    public var applicationCryptogram: String?
    /// The merchant's reference (`externalID` on the wire).
    public var externalID: String?
    public var retrievalRefNum: String?
    /// On a refund: the sale it refunds.
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

    /// A transaction; the seed's mandatory fields come first, every optional one defaults to nil.
    public init(
        transactionId: String, transactionStatus: TransactionStatus, transactionType: TransactionType,
        transactionAmount: Int, transactionDate: Date, merchantId: String, terminalId: String,
        cancellable: Bool, authId: String, cardNumber: String, paymentMethod: PaymentMethod,
        tipAmount: Int? = nil, applicationLabel: String? = nil, cardType: String? = nil, expiryDate: Date? = nil,
        aid: String? = nil, responseCode: String? = nil, responseMsg: String? = nil, cid: String? = nil,
        applicationCryptogram: String? = nil, externalID: String? = nil, retrievalRefNum: String? = nil,
        refundedTransactionId: String? = nil, refundedDate: Date? = nil, refundedMaskedPan: String? = nil,
        isReversalAvailable: Bool? = nil, refundable: Bool? = nil, ref1: String? = nil, ref2: String? = nil,
        currency: TerminalCurrency? = nil, dccStatus: DCCStatus? = nil, dccAmount: Int? = nil,
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
        self.aid = aid
        self.cardNumber = cardNumber
        self.responseCode = responseCode
        self.responseMsg = responseMsg
        self.cid = cid
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

    /// Fills the DCC fields from a quote: amount, currency, base rate, markup and ECB indicator.
    /// ``dccStatus`` is left to the caller (`OFFERED` while the cardholder chooses).
    public mutating func apply(_ quote: DCCQuote) {
        dccAmount = quote.amount
        dccCurrency = TerminalCurrency(quote.currency)
        dccExchangeRate = quote.exchangeRateValue
        dccMarkup = quote.markupPercentValue
        dccEcbIndicator = quote.ecbIndicator
    }
}
