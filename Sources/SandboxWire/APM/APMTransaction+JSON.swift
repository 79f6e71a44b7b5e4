import FastJSON

extension APMTransaction: JSONObjectWritable {
    public static let memberNames = JSONMemberNames<CodingKeys>()

    /// One field's value, the one place the transaction's JSON is written: both `encode(to:)`
    /// (every field in declaration order, `null` included, dates in the wire format) and
    /// `write(to:)` (the same, keys sorted, straight to bytes: every QR create and poll answers one).
    public func writeMember(_ key: CodingKeys, to sink: inout some JSONMemberSink) throws {
        switch key {
        case .transactionId: try sink.string(transactionId, for: key)
        case .transactionStatus: try sink.string(transactionStatus.rawValue, for: key)
        case .transactionType: try sink.string(transactionType.rawValue, for: key)
        case .paymentMethod: try sink.string(paymentMethod.rawValue, for: key)
        case .brand: try sink.string(brand?.rawValue, for: key)
        case .brandFullName: try sink.string(brandFullName, for: key)
        case .transactionAmount: try sink.integer(transactionAmount, for: key)
        case .tipAmount: try sink.integer(tipAmount, for: key)
        case .currency: try sink.value(currency, for: key)
        case .transactionDate: try sink.string(WireTime.string(from: transactionDate), for: key)
        case .expiresAt: try sink.string(expiresAt.map(WireTime.string(from:)), for: key)
        case .merchantId: try sink.string(merchantId, for: key)
        case .terminalId: try sink.string(terminalId, for: key)
        case .externalID: try sink.string(externalID, for: key)
        case .qrCode: try sink.string(qrCode, for: key)
        case .qrCodeSVG: try sink.string(qrCodeSVG, for: key)
        case .providerReference: try sink.string(providerReference, for: key)
        case .responseCode: try sink.string(responseCode, for: key)
        case .responseMsg: try sink.string(responseMsg, for: key)
        case .declineReason: try sink.string(declineReason, for: key)
        case .refundedTransactionId: try sink.string(refundedTransactionId, for: key)
        case .refundable: try sink.bool(refundable, for: key)
        }
    }
}
