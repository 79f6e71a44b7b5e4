import FastJSON

extension WalletProvider.Order: JSONObjectWritable {
    public static let memberNames = JSONMemberNames<CodingKeys>()

    /// One field's value, the one place the order's JSON is written: `encode(to:)` (declaration
    /// order, `null` included, dates in the wire format) and `write(to:)` (keys sorted, straight to
    /// bytes: the wallet answers an order to every create, pay and poll).
    public func writeMember(_ key: CodingKeys, to sink: inout some JSONMemberSink) throws {
        switch key {
        case .orderId: try sink.string(orderId, for: key)
        case .region: try sink.string(region, for: key)
        case .merchantId: try sink.string(merchantId, for: key)
        case .merchantName: try sink.string(merchantName, for: key)
        case .terminalId: try sink.string(terminalId, for: key)
        case .amount: try sink.integer(amount, for: key)
        case .currency: try sink.string(currency, for: key)
        case .brand: try sink.string(brand, for: key)
        case .brandFullName: try sink.string(brandFullName, for: key)
        case .reference: try sink.string(reference, for: key)
        case .status: try sink.string(status.rawValue, for: key)
        case .payUrl: try sink.string(payUrl, for: key)
        case .createdAt: try sink.string(WireTime.string(from: createdAt), for: key)
        case .expiresAt: try sink.string(WireTime.string(from: expiresAt), for: key)
        case .paymentId: try sink.string(paymentId, for: key)
        case .reason: try sink.string(reason, for: key)
        }
    }
}
