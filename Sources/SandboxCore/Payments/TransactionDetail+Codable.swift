import Foundation

extension TransactionDetail {
    /// The seed's field names, in the seed's order.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case transactionId, transactionStatus, transactionType, transactionAmount, tipAmount, transactionDate
        case merchantId, terminalId, cancellable, applicationLabel, cardType, expiryDate, authId
        case aid = "AID"
        case cardNumber, responseCode, responseMsg
        case cid = "CID"
        case applicationCryptogram, externalID, retrievalRefNum, refundedTransactionId, refundedDate
        case refundedMaskedPan, isReversalAvailable, paymentMethod, refundable, ref1, ref2, currency
        case dccStatus, dccAmount, dccCurrency, dccExchangeRate, dccMarkup, dccEcbIndicator, transactionRetry
    }

    /// Reads a detail; optional fields may be absent or `null`, dates are ISO 8601 strings.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            transactionId: try c.decode(String.self, forKey: .transactionId),
            transactionStatus: try c.decode(TransactionStatus.self, forKey: .transactionStatus),
            transactionType: try c.decode(TransactionType.self, forKey: .transactionType),
            transactionAmount: try c.decode(Int.self, forKey: .transactionAmount),
            transactionDate: try c.decodeWireDate(forKey: .transactionDate),
            merchantId: try c.decode(String.self, forKey: .merchantId),
            terminalId: try c.decode(String.self, forKey: .terminalId),
            cancellable: try c.decode(Bool.self, forKey: .cancellable),
            authId: try c.decode(String.self, forKey: .authId),
            cardNumber: try c.decode(String.self, forKey: .cardNumber),
            paymentMethod: try c.decode(PaymentMethod.self, forKey: .paymentMethod),
            tipAmount: try c.decodeIfPresent(Int.self, forKey: .tipAmount),
            applicationLabel: try c.decodeIfPresent(String.self, forKey: .applicationLabel),
            cardType: try c.decodeIfPresent(String.self, forKey: .cardType),
            expiryDate: try c.decodeWireDateIfPresent(forKey: .expiryDate),
            aid: try c.decodeIfPresent(String.self, forKey: .aid),
            responseCode: try c.decodeIfPresent(String.self, forKey: .responseCode),
            responseMsg: try c.decodeIfPresent(String.self, forKey: .responseMsg),
            cid: try c.decodeIfPresent(String.self, forKey: .cid),
            applicationCryptogram: try c.decodeIfPresent(String.self, forKey: .applicationCryptogram),
            externalID: try c.decodeIfPresent(String.self, forKey: .externalID),
            retrievalRefNum: try c.decodeIfPresent(String.self, forKey: .retrievalRefNum),
            refundedTransactionId: try c.decodeIfPresent(String.self, forKey: .refundedTransactionId),
            refundedDate: try c.decodeWireDateIfPresent(forKey: .refundedDate),
            refundedMaskedPan: try c.decodeIfPresent(String.self, forKey: .refundedMaskedPan),
            isReversalAvailable: try c.decodeIfPresent(Bool.self, forKey: .isReversalAvailable),
            refundable: try c.decodeIfPresent(Bool.self, forKey: .refundable),
            ref1: try c.decodeIfPresent(String.self, forKey: .ref1),
            ref2: try c.decodeIfPresent(String.self, forKey: .ref2),
            currency: try c.decodeIfPresent(TerminalCurrency.self, forKey: .currency),
            dccStatus: try c.decodeIfPresent(DCCStatus.self, forKey: .dccStatus),
            dccAmount: try c.decodeIfPresent(Int.self, forKey: .dccAmount),
            dccCurrency: try c.decodeIfPresent(TerminalCurrency.self, forKey: .dccCurrency),
            dccExchangeRate: try c.decodeIfPresent(Double.self, forKey: .dccExchangeRate),
            dccMarkup: try c.decodeIfPresent(Double.self, forKey: .dccMarkup),
            dccEcbIndicator: try c.decodeIfPresent(Bool.self, forKey: .dccEcbIndicator),
            transactionRetry: try c.decodeIfPresent(Int.self, forKey: .transactionRetry))
    }

    /// Writes all 37 fields in the seed's order, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(transactionId, forKey: .transactionId)
        try c.encode(transactionStatus, forKey: .transactionStatus)
        try c.encode(transactionType, forKey: .transactionType)
        try c.encode(transactionAmount, forKey: .transactionAmount)
        try c.encode(tipAmount, forKey: .tipAmount)
        try c.encodeWireDate(transactionDate, forKey: .transactionDate)
        try c.encode(merchantId, forKey: .merchantId)
        try c.encode(terminalId, forKey: .terminalId)
        try c.encode(cancellable, forKey: .cancellable)
        try c.encode(applicationLabel, forKey: .applicationLabel)
        try c.encode(cardType, forKey: .cardType)
        try c.encodeWireDate(expiryDate, forKey: .expiryDate)
        try c.encode(authId, forKey: .authId)
        try c.encode(aid, forKey: .aid)
        try c.encode(cardNumber, forKey: .cardNumber)
        try c.encode(responseCode, forKey: .responseCode)
        try c.encode(responseMsg, forKey: .responseMsg)
        try c.encode(cid, forKey: .cid)
        try c.encode(applicationCryptogram, forKey: .applicationCryptogram)
        try c.encode(externalID, forKey: .externalID)
        try c.encode(retrievalRefNum, forKey: .retrievalRefNum)
        try c.encode(refundedTransactionId, forKey: .refundedTransactionId)
        try c.encodeWireDate(refundedDate, forKey: .refundedDate)
        try c.encode(refundedMaskedPan, forKey: .refundedMaskedPan)
        try c.encode(isReversalAvailable, forKey: .isReversalAvailable)
        try c.encode(paymentMethod, forKey: .paymentMethod)
        try c.encode(refundable, forKey: .refundable)
        try c.encode(ref1, forKey: .ref1)
        try c.encode(ref2, forKey: .ref2)
        try c.encode(currency, forKey: .currency)
        try c.encode(dccStatus, forKey: .dccStatus)
        try c.encode(dccAmount, forKey: .dccAmount)
        try c.encode(dccCurrency, forKey: .dccCurrency)
        try c.encode(dccExchangeRate, forKey: .dccExchangeRate)
        try c.encode(dccMarkup, forKey: .dccMarkup)
        try c.encode(dccEcbIndicator, forKey: .dccEcbIndicator)
        try c.encode(transactionRetry, forKey: .transactionRetry)
    }
}
