/// The request and answer bodies of the MONEI host other than the Payment object (openapi/monei.yaml).
public enum MoneiBodies {
    /// `POST /v1/pos/auth-token`, sent by the merchant's backend with its API key.
    public struct AuthTokenRequest: Codable, Sendable, Equatable {
        public let storeId: String?
        public let pointOfSaleId: String?

        public init(storeId: String? = nil, pointOfSaleId: String? = nil) {
            self.storeId = storeId
            self.pointOfSaleId = pointOfSaleId
        }
    }

    /// The answer of `POST /v1/pos/auth-token`: the token the device's `prepare(token:)` takes.
    public struct AuthToken: Codable, Sendable, Equatable {
        public let token: String

        public init(token: String) { self.token = token }
    }

    /// The answer of `POST /v1/pos/prepare` (the device, `Authorization: Bearer <POS token>`): what the
    /// token is for, until when, and the simulated reader's configuration to seal card reads with.
    public struct PointOfSale: Codable, Sendable, Equatable {
        public let accountId: String
        public let storeId: String
        /// The terminal the reader seals card payloads for (`terminalId` of the sealed payload).
        public let pointOfSaleId: String
        /// When the token expires, in seconds since 1970 on the host's clock.
        public let expiresAt: Int64
        public let reader: ReaderConfiguration

        public init(accountId: String, storeId: String, pointOfSaleId: String, expiresAt: Int64, reader: ReaderConfiguration) {
            self.accountId = accountId
            self.storeId = storeId
            self.pointOfSaleId = pointOfSaleId
            self.expiresAt = expiresAt
            self.reader = reader
        }
    }

    /// `POST /v1/pos/payments` (the device, after the card read): one card payment.
    public struct PaymentRequest: Codable, Sendable, Equatable {
        /// In euro cents, more than 0.
        public let amount: Int
        /// `EUR` when left out (the only currency of the region).
        public let currency: String?
        public let orderId: String
        public let callbackUrl: String?
        /// The sealed card payload of the simulated reader, as the TapOnMobile sale sends it.
        public let card: String

        public init(amount: Int, currency: String? = nil, orderId: String, callbackUrl: String? = nil, card: String) {
            self.amount = amount
            self.currency = currency
            self.orderId = orderId
            self.callbackUrl = callbackUrl
            self.card = card
        }
    }

    /// `POST /v1/payments/{id}/refund`, sent by the merchant's backend with its API key.
    public struct RefundRequest: Codable, Sendable, Equatable {
        /// In cents; the whole amount not yet refunded when left out.
        public let amount: Int?
        /// `duplicated`, `fraudulent` or `requested_by_customer`.
        public let refundReason: String?

        public init(amount: Int? = nil, refundReason: String? = nil) {
            self.amount = amount
            self.refundReason = refundReason
        }
    }

    /// MONEI's error body: `{"status": "Unauthorized", "statusCode": 401, "message": …, "requestId": …}`.
    ///
    /// `code` is the sandbox's own addition: the stable ``ErrorCode`` raw value a device switches over
    /// (`session_expired`: the POS token expired; `unauthorized`: it is forged or for another host;
    /// `outcome_unknown`: the callbackUrl was refused after the card read, no payment made).
    public struct Error: Codable, Sendable, Equatable {
        public let status: String
        public let statusCode: Int
        public let message: String
        public let requestId: String
        public let code: String?
        /// The request field that is wrong, when one is.
        public let field: String?

        public init(status: String, statusCode: Int, message: String, requestId: String, code: String?, field: String?) {
            self.status = status
            self.statusCode = statusCode
            self.message = message
            self.requestId = requestId
            self.code = code
            self.field = field
        }
    }
}
