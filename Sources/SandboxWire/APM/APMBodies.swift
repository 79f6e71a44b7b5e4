/// The bodies of the terminal API's APM calls (docs/qr-payments.md, docs/blik.md): what the SDK's
/// `doQRPayment`, `cancelQRPayment`, `doQRRefund`, `doBlikPayment` and `doBlikRefund` send and the
/// host reads.
public enum APMBodies {
    /// `POST /terminal/v1/apm/qr/payments`.
    ///
    /// ```json
    /// { "requestedAmount": 1250, "tipAmount": 250, "reference": "INV-1", "brand": "ALIPAY" }
    /// ```
    public struct Payment: Codable, Sendable, Equatable {
        /// Minor units, tip included (the seed's rule, as for cards).
        public var requestedAmount: Int
        public var tipAmount: Int?
        public var reference: String?
        /// One of the terminal's active `apmConfig` brands.
        public var brand: APMPaymentData.APMBrand

        public init(requestedAmount: Int, tipAmount: Int? = nil, reference: String? = nil, brand: APMPaymentData.APMBrand) {
            self.requestedAmount = requestedAmount
            self.tipAmount = tipAmount
            self.reference = reference
            self.brand = brand
        }
    }

    /// `POST /terminal/v1/apm/transactions/{transactionId}/cancel`.
    public struct Cancel: Codable, Sendable, Equatable {
        /// The seed's `reason`, may be empty.
        public var reason: String?
        public init(reason: String? = nil) { self.reason = reason }
    }

    /// `POST /terminal/v1/apm/qr/refunds`.
    ///
    /// ```json
    /// { "refundedTransactionId": "b07c…", "refundAmount": 500, "reference": "RMA-7" }
    /// ```
    public struct Refund: Codable, Sendable, Equatable {
        public var refundedTransactionId: String
        /// Minor units, at most what is left of the payment.
        public var refundAmount: Int
        public var reference: String?

        public init(refundedTransactionId: String, refundAmount: Int, reference: String? = nil) {
            self.refundedTransactionId = refundedTransactionId
            self.refundAmount = refundAmount
            self.reference = reference
        }
    }

    /// `POST /terminal/v1/apm/blik/payments`.
    ///
    /// ```json
    /// { "requestedAmount": 4500, "tipAmount": null, "reference": "INV-2", "payCode": "777123", "verificationCode": null }
    /// ```
    public struct BlikPayment: Codable, Sendable, Equatable {
        /// Minor units, tip included.
        public var requestedAmount: Int
        public var tipAmount: Int?
        public var reference: String?
        /// The seed's `payCode`: 6 digits, or 9 with a ``verificationCode``.
        public var payCode: String
        /// Required with a 9-digit `payCode`, absent with a 6-digit one.
        public var verificationCode: String?
        /// ISO 4217; optional (the seed's call has none), and when given it must be the terminal's,
        /// as for a card sale: a BLIK account pays in its own currency only.
        public var currency: String?

        public init(
            requestedAmount: Int, tipAmount: Int? = nil, reference: String? = nil, payCode: String, verificationCode: String? = nil,
            currency: String? = nil
        ) {
            self.requestedAmount = requestedAmount
            self.tipAmount = tipAmount
            self.reference = reference
            self.payCode = payCode
            self.verificationCode = verificationCode
            self.currency = currency
        }
    }
}
