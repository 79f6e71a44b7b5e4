/// The body of `POST /terminal/v1/transactions/sale`: what the SDK's `doPayment` sends and the
/// host reads. Absent optionals are left out when written.
///
/// ```json
/// { "currency": "EUR", "requestedAmount": 1250, "tipAmount": 250, "reference": "INV-7",
///   "countryCode": "BE", "cardPayload": "<sealed card>" }
/// ```
public struct SaleRequest: Codable, Sendable, Equatable {
    /// ISO 4217 code; must be the terminal's.
    public let currency: String
    /// Minor units, tip included.
    public let requestedAmount: Int
    public let tipAmount: Int?
    /// The merchant's reference (`externalID` of the detail).
    public let reference: String?
    /// A checkout the merchant's backend registered; every field must match it.
    public let checkoutId: String?
    /// Where the device stands (ISO 3166-1 alpha-2), for the terminal's permitted countries.
    public let countryCode: String?
    /// The reader's sealed card, or nil to create the sale `NEW`, waiting for the card.
    public let cardPayload: String?
    /// How a read without a card ended (`cancelled`, `timeout`, `background`).
    public let readerOutcome: String?
    /// MONEI's `callbackUrl`: where this payment's signed webhook goes (merchant backends, not the SDK).
    public let callbackUrl: String?

    public init(
        currency: String, requestedAmount: Int, tipAmount: Int? = nil, reference: String? = nil, checkoutId: String? = nil,
        countryCode: String? = nil, cardPayload: String? = nil, readerOutcome: String? = nil, callbackUrl: String? = nil
    ) {
        self.currency = currency
        self.requestedAmount = requestedAmount
        self.tipAmount = tipAmount
        self.reference = reference
        self.checkoutId = checkoutId
        self.countryCode = countryCode
        self.cardPayload = cardPayload
        self.readerOutcome = readerOutcome
        self.callbackUrl = callbackUrl
    }
}
