import FastJSON
import Foundation
import SandboxWire

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
}

extension TransactionDetail: JSONObjectWritable {
    public static let memberNames = JSONMemberNames<CodingKeys>()

    /// One field's value, the one place the detail's JSON is written: both `encode(to:)` (all 37
    /// fields in the seed's order, `null` included) and `write(to:)` (the same, keys sorted,
    /// straight to bytes: a sale answers one) come from it.
    public func writeMember(_ key: CodingKeys, to sink: inout some JSONMemberSink) throws {
        switch key {
        case .transactionId: try sink.string(transactionId, for: key)
        case .transactionStatus: try sink.string(transactionStatus.rawValue, for: key)
        case .transactionType: try sink.string(transactionType.rawValue, for: key)
        case .transactionAmount: try sink.integer(transactionAmount, for: key)
        case .tipAmount: try sink.integer(tipAmount, for: key)
        case .transactionDate: try sink.string(WireTime.string(from: transactionDate), for: key)
        case .merchantId: try sink.string(merchantId, for: key)
        case .terminalId: try sink.string(terminalId, for: key)
        case .cancellable: try sink.bool(cancellable, for: key)
        case .applicationLabel: try sink.string(applicationLabel, for: key)
        case .cardType: try sink.string(cardType, for: key)
        case .expiryDate: try sink.string(expiryDate.map(WireTime.string(from:)), for: key)
        case .authId: try sink.string(authId, for: key)
        case .aid: try sink.string(aid, for: key)
        case .cardNumber: try sink.string(cardNumber, for: key)
        case .responseCode: try sink.string(responseCode, for: key)
        case .responseMsg: try sink.string(responseMsg, for: key)
        case .cid: try sink.string(cid, for: key)
        case .applicationCryptogram: try sink.string(applicationCryptogram, for: key)
        case .externalID: try sink.string(externalID, for: key)
        case .retrievalRefNum: try sink.string(retrievalRefNum, for: key)
        case .refundedTransactionId: try sink.string(refundedTransactionId, for: key)
        case .refundedDate: try sink.string(refundedDate.map(WireTime.string(from:)), for: key)
        case .refundedMaskedPan: try sink.string(refundedMaskedPan, for: key)
        case .isReversalAvailable: try sink.bool(isReversalAvailable, for: key)
        case .paymentMethod: try sink.string(paymentMethod.rawValue, for: key)
        case .refundable: try sink.bool(refundable, for: key)
        case .ref1: try sink.string(ref1, for: key)
        case .ref2: try sink.string(ref2, for: key)
        case .currency: try sink.value(currency, for: key)
        case .dccStatus: try sink.string(dccStatus?.rawValue, for: key)
        case .dccAmount: try sink.integer(dccAmount, for: key)
        case .dccCurrency: try sink.value(dccCurrency, for: key)
        case .dccExchangeRate: try sink.double(dccExchangeRate, for: key)
        case .dccMarkup: try sink.double(dccMarkup, for: key)
        case .dccEcbIndicator: try sink.bool(dccEcbIndicator, for: key)
        case .transactionRetry: try sink.integer(transactionRetry, for: key)
        }
    }
}
