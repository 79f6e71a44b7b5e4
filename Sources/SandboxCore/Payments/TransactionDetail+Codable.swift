import FastJSON
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

extension TransactionDetail: SortedJSONWritable {
    private static let memberNames = JSONMemberNames<CodingKeys>()

    /// What ``encode(to:)`` gives through the wire encoder, written directly: a sale answers one.
    public func write(to writer: inout SortedJSONWriter) throws {
        try writer.object { w in
            for (key, written) in Self.memberNames.sorted {
                w.member(written: written)
                switch key {
                case .transactionId: w.string(transactionId)
                case .transactionStatus: w.string(transactionStatus.rawValue)
                case .transactionType: w.string(transactionType.rawValue)
                case .transactionAmount: w.integer(transactionAmount)
                case .tipAmount: w.integer(tipAmount)
                case .transactionDate: w.string(WireDate.string(from: transactionDate))
                case .merchantId: w.string(merchantId)
                case .terminalId: w.string(terminalId)
                case .cancellable: w.bool(cancellable)
                case .applicationLabel: w.string(applicationLabel)
                case .cardType: w.string(cardType)
                case .expiryDate: w.string(expiryDate.map(WireDate.string(from:)))
                case .authId: w.string(authId)
                case .aid: w.string(aid)
                case .cardNumber: w.string(cardNumber)
                case .responseCode: w.string(responseCode)
                case .responseMsg: w.string(responseMsg)
                case .cid: w.string(cid)
                case .applicationCryptogram: w.string(applicationCryptogram)
                case .externalID: w.string(externalID)
                case .retrievalRefNum: w.string(retrievalRefNum)
                case .refundedTransactionId: w.string(refundedTransactionId)
                case .refundedDate: w.string(refundedDate.map(WireDate.string(from:)))
                case .refundedMaskedPan: w.string(refundedMaskedPan)
                case .isReversalAvailable: w.bool(isReversalAvailable)
                case .paymentMethod: w.string(paymentMethod.rawValue)
                case .refundable: w.bool(refundable)
                case .ref1: w.string(ref1)
                case .ref2: w.string(ref2)
                case .currency: try w.value(currency)
                case .dccStatus: w.string(dccStatus?.rawValue)
                case .dccAmount: w.integer(dccAmount)
                case .dccCurrency: try w.value(dccCurrency)
                case .dccExchangeRate: try w.double(dccExchangeRate, codingPath: [key])
                case .dccMarkup: try w.double(dccMarkup, codingPath: [key])
                case .dccEcbIndicator: w.bool(dccEcbIndicator)
                case .transactionRetry: w.integer(transactionRetry)
                }
            }
        }
    }
}
