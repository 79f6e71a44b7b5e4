/// The body of `POST /terminal/v1/transactions/validate` (the SDK's `validateTransaction`, and
/// its check before every card screen). Absent optionals are left out when written.
///
/// ```json
/// { "transactionServiceType": "PAYMENT", "requestedAmount": 1250, "countryCode": "BE", "tipAmount": 250 }
/// ```
public struct ValidateRequest: Codable, Sendable, Equatable {
    /// `PAYMENT`, `REFUND` or `REVERSAL`.
    public let transactionServiceType: String
    public let requestedAmount: Int?
    public let countryCode: String?
    /// The seed's `validate:` argument: the reference the transaction will carry.
    public let reference: String?
    /// Not in the seed's call: a sale's tip, sent before the card screen so that the host refuses
    /// it (`tips_not_allowed` …) before the customer taps.
    public let tipAmount: Int?
    /// Not in the seed's call: a refund's sale (`refund_over_amount` …); an empty value counts as absent.
    public let transactionId: String?
    /// Not in the seed's call: the sale's or refund's currency, sent before the card screen so that
    /// the host refuses one the terminal does not take (`currency_mismatch`) before the customer taps.
    public let currency: String?

    public init(
        transactionServiceType: String, requestedAmount: Int?, countryCode: String?, reference: String?,
        tipAmount: Int? = nil, transactionId: String? = nil, currency: String? = nil
    ) {
        self.transactionServiceType = transactionServiceType
        self.requestedAmount = requestedAmount
        self.countryCode = countryCode
        self.reference = reference
        self.tipAmount = tipAmount
        self.transactionId = transactionId
        self.currency = currency
    }
}
