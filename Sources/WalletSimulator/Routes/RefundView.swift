import WalletStorage

/// What `POST /provider/v1/refunds` answers (202) and `GET /provider/v1/refunds/{refundId}` reads.
struct RefundView: Encodable {
    let refundId: String
    let orderId: String
    let amount: Int
    let reference: String?
    /// `pending`, `succeeded` or `failed`.
    let status: String
    let reason: String?
    let providerReference: String?

    init(_ refund: RefundRecord) {
        refundId = refund.refundId
        orderId = refund.orderId
        amount = refund.amount
        reference = refund.reference
        status = refund.status.rawValue
        reason = refund.reason
        providerReference = refund.providerId
    }

    enum CodingKeys: String, CodingKey { case refundId, orderId, amount, reference, status, reason, providerReference }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(refundId, forKey: .refundId)
        try c.encode(orderId, forKey: .orderId)
        try c.encode(amount, forKey: .amount)
        try c.encode(reference, forKey: .reference)
        try c.encode(status, forKey: .status)
        try c.encode(reason, forKey: .reason)
        try c.encode(providerReference, forKey: .providerReference)
    }
}
