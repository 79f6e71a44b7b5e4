import FastJSON

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
        case .AID: try sink.string(AID, for: key)
        case .cardNumber: try sink.string(cardNumber, for: key)
        case .responseCode: try sink.string(responseCode, for: key)
        case .responseMsg: try sink.string(responseMsg, for: key)
        case .CID: try sink.string(CID, for: key)
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
