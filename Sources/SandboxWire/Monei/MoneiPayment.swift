/// MONEI's Payment object, as the MONEI host answers it and posts it to a payment's `callbackUrl`
/// (openapi/monei.yaml, docs/monei.md).
///
/// Amounts are in cents, times are whole seconds since 1970 on the host's clock, and absent values
/// are left out (MONEI's clients type-check every field they find, so a `null` would break them).
///
/// ```json
/// { "id": "0190b1c2…", "amount": 1050, "currency": "EUR", "orderId": "order-17", "status": "SUCCEEDED",
///   "statusCode": "E000", "statusMessage": "Transaction approved", "livemode": false,
///   "paymentMethod": { "method": "card", "card": { "brand": "visa", "last4": "0011", "type": "debit", "country": "BE" } },
///   "refundedAmount": 0, "storeId": "store_giralda_centro", "pointOfSaleId": "MONEI-T0101",
///   "createdAt": 1764672000, "updatedAt": 1764672000 }
/// ```
public struct MoneiPayment: Codable, Sendable, Equatable {
    /// MONEI's payment statuses; the host gives a card payment SUCCEEDED, FAILED, REFUNDED or PARTIALLY_REFUNDED.
    public enum Status: String, Codable, Sendable, CaseIterable {
        case SUCCEEDED, PENDING, FAILED, CANCELED, REFUNDED, PARTIALLY_REFUNDED, AUTHORIZED, EXPIRED
    }

    public struct PaymentMethod: Codable, Sendable, Equatable {
        /// Always `card` here.
        public let method: String
        public let card: Card?

        public init(method: String = "card", card: Card?) {
            self.method = method
            self.card = card
        }
    }

    public struct Card: Codable, Sendable, Equatable {
        /// The network in lower case (`visa`, `mastercard`, `amex` …), `unknown` for another one.
        public let brand: String?
        public let last4: String?
        /// `debit` or `credit`.
        public let type: String?
        /// ISO 3166-1 alpha-2 country of the issuer.
        public let country: String?

        public init(brand: String?, last4: String?, type: String?, country: String?) {
            self.brand = brand
            self.last4 = last4
            self.type = type
            self.country = country
        }
    }

    public let id: String
    public let amount: Int
    public let currency: String
    public let accountId: String?
    public let orderId: String?
    public let status: Status
    /// `E000` approved; a refusal code otherwise (docs/monei.md lists them).
    public let statusCode: String?
    public let statusMessage: String?
    public let authorizationCode: String?
    public let livemode: Bool
    public let paymentMethod: PaymentMethod?
    public let refundedAmount: Int?
    public let lastRefundAmount: Int?
    public let lastRefundReason: String?
    public let storeId: String?
    public let pointOfSaleId: String?
    public let createdAt: Int64
    public let updatedAt: Int64

    public init(
        id: String, amount: Int, currency: String, accountId: String?, orderId: String?, status: Status, statusCode: String?,
        statusMessage: String?, authorizationCode: String?, livemode: Bool = false, paymentMethod: PaymentMethod?,
        refundedAmount: Int?, lastRefundAmount: Int?, lastRefundReason: String?, storeId: String?, pointOfSaleId: String?,
        createdAt: Int64, updatedAt: Int64
    ) {
        self.id = id
        self.amount = amount
        self.currency = currency
        self.accountId = accountId
        self.orderId = orderId
        self.status = status
        self.statusCode = statusCode
        self.statusMessage = statusMessage
        self.authorizationCode = authorizationCode
        self.livemode = livemode
        self.paymentMethod = paymentMethod
        self.refundedAmount = refundedAmount
        self.lastRefundAmount = lastRefundAmount
        self.lastRefundReason = lastRefundReason
        self.storeId = storeId
        self.pointOfSaleId = pointOfSaleId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
