/// The body of `POST /terminal/v1/transactions/refund`: what the SDK's `doRefund` sends and the
/// host reads. Absent optionals are left out when written.
///
/// ```json
/// { "currency": "EUR", "requestedAmount": 1000, "transactionId": "a1f0…", "cardPayload": "<sealed card>" }
/// ```
public struct RefundRequest: Codable, Sendable, Equatable {
    /// ISO 4217 code; the sale's.
    public let currency: String
    /// Minor units, at most what is left of the sale.
    public let requestedAmount: Int
    /// The sale refunded.
    public let transactionId: String
    public let reference: String?
    /// The reader's sealed card, or nil to create the refund `NEW`, waiting for the card.
    public let cardPayload: String?
    /// How a read without a card ended (`cancelled`, `timeout`, `background`).
    public let readerOutcome: String?

    public init(
        currency: String, requestedAmount: Int, transactionId: String, reference: String? = nil, cardPayload: String? = nil,
        readerOutcome: String? = nil
    ) {
        self.currency = currency
        self.requestedAmount = requestedAmount
        self.transactionId = transactionId
        self.reference = reference
        self.cardPayload = cardPayload
        self.readerOutcome = readerOutcome
    }
}
