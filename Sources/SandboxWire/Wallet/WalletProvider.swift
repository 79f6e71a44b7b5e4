import Foundation

/// The server-to-server protocol between an environment host and the wallet simulator playing
/// the QR-wallet provider (docs/qr-payments.md, "Host and wallet").
///
/// Every request either way is signed with the region's wallet secret from
/// `sandbox-data/wallet.json`: `Wallet-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`
/// (the MONEI scheme of the `WebhookSignature` library, real time, 300 s tolerance) and names
/// its region in `Wallet-Region`. A GET signs the empty body.
public enum WalletProvider {
    public static let signatureHeader = "Wallet-Signature"
    public static let regionHeader = "Wallet-Region"

    /// The wallet's order states.
    public enum OrderStatus: String, Codable, Sendable, Equatable, CaseIterable {
        /// Made, the QR not opened yet.
        case pending
        /// The customer opened the pay page.
        case scanned
        /// The customer pressed Pay; the host has not acknowledged yet (nothing is charged).
        case paying
        /// The host acknowledged the payment: the customer is charged.
        case paid
        case declined
        /// The wallet let the order expire (its "Let it expire", or the host's deadline seen by the wallet).
        case expired
        /// The merchant side closed it (cancel or the host's timeout) before it was paid.
        case closed
        /// The customer paid too late: the host refused, nothing is charged.
        case refused
    }

    /// `POST /provider/v1/orders` (host → wallet). Idempotent on `orderId`.
    public struct OrderRequest: Codable, Sendable, Equatable {
        /// The host's transaction id.
        public var orderId: String
        public var region: String
        public var merchantId: String
        public var merchantName: String
        public var terminalId: String
        /// Minor units, tip included.
        public var amount: Int
        /// ISO 4217.
        public var currency: String
        public var brand: String
        public var brandFullName: String?
        public var reference: String?
        /// How long the host keeps the order open (its `apmTimeout`); the wallet counts down on its own clock.
        public var expiresInSeconds: Int

        public init(
            orderId: String, region: String, merchantId: String, merchantName: String, terminalId: String, amount: Int,
            currency: String, brand: String, brandFullName: String? = nil, reference: String? = nil, expiresInSeconds: Int
        ) {
            self.orderId = orderId
            self.region = region
            self.merchantId = merchantId
            self.merchantName = merchantName
            self.terminalId = terminalId
            self.amount = amount
            self.currency = currency
            self.brand = brand
            self.brandFullName = brandFullName
            self.reference = reference
            self.expiresInSeconds = expiresInSeconds
        }
    }

    /// An order as the wallet answers it (provider API and the customer API).
    public struct Order: Codable, Sendable, Equatable {
        public var orderId: String
        public var region: String
        public var merchantId: String
        public var merchantName: String
        public var terminalId: String
        public var amount: Int
        public var currency: String
        public var brand: String
        public var brandFullName: String?
        public var reference: String?
        public var status: OrderStatus
        /// The customer's pay page, the QR's content.
        public var payUrl: String
        public var createdAt: Date
        /// On the wallet's clock.
        public var expiresAt: Date
        /// Set once paid.
        public var paymentId: String?
        /// On `declined`: an ``APMDeclineReason`` raw value; on `closed`/`refused`: why.
        public var reason: String?

        public init(
            orderId: String, region: String, merchantId: String, merchantName: String, terminalId: String, amount: Int,
            currency: String, brand: String, brandFullName: String? = nil, reference: String? = nil, status: OrderStatus,
            payUrl: String, createdAt: Date, expiresAt: Date, paymentId: String? = nil, reason: String? = nil
        ) {
            self.orderId = orderId
            self.region = region
            self.merchantId = merchantId
            self.merchantName = merchantName
            self.terminalId = terminalId
            self.amount = amount
            self.currency = currency
            self.brand = brand
            self.brandFullName = brandFullName
            self.reference = reference
            self.status = status
            self.payUrl = payUrl
            self.createdAt = createdAt
            self.expiresAt = expiresAt
            self.paymentId = paymentId
            self.reason = reason
        }

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case orderId, region, merchantId, merchantName, terminalId, amount, currency, brand, brandFullName, reference
            case status, payUrl, createdAt, expiresAt, paymentId, reason
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            orderId = try c.decode(String.self, forKey: .orderId)
            region = try c.decode(String.self, forKey: .region)
            merchantId = try c.decode(String.self, forKey: .merchantId)
            merchantName = try c.decode(String.self, forKey: .merchantName)
            terminalId = try c.decode(String.self, forKey: .terminalId)
            amount = try c.decode(Int.self, forKey: .amount)
            currency = try c.decode(String.self, forKey: .currency)
            brand = try c.decode(String.self, forKey: .brand)
            brandFullName = try c.decodeIfPresent(String.self, forKey: .brandFullName)
            reference = try c.decodeIfPresent(String.self, forKey: .reference)
            status = try c.decode(OrderStatus.self, forKey: .status)
            payUrl = try c.decode(String.self, forKey: .payUrl)
            createdAt = try c.decodeWireDate(forKey: .createdAt)
            expiresAt = try c.decodeWireDate(forKey: .expiresAt)
            paymentId = try c.decodeIfPresent(String.self, forKey: .paymentId)
            reason = try c.decodeIfPresent(String.self, forKey: .reason)
        }
    }

    /// `POST /provider/v1/orders/{orderId}/close` (host → wallet): the merchant side ended an unpaid order.
    public struct CloseRequest: Codable, Sendable, Equatable {
        /// `cancelled` (the app's cancel) or `expired` (the host's `apmTimeout`).
        public var reason: String
        public init(reason: String) { self.reason = reason }
    }

    /// `POST /provider/v1/refunds` (host → wallet): answered 202 at once, the outcome comes as a notification.
    public struct RefundRequest: Codable, Sendable, Equatable {
        /// The host's refund transaction id.
        public var refundId: String
        public var orderId: String
        public var amount: Int
        public var reference: String?

        public init(refundId: String, orderId: String, amount: Int, reference: String? = nil) {
            self.refundId = refundId
            self.orderId = orderId
            self.amount = amount
            self.reference = reference
        }
    }

    /// What a notification (wallet → host, `POST /provider/v1/notifications` on the host) reports.
    public enum NotificationType: String, Codable, Sendable, Equatable, CaseIterable {
        case orderScanned = "order.scanned"
        case orderPaid = "order.paid"
        case orderDeclined = "order.declined"
        case orderExpired = "order.expired"
        case refundSucceeded = "refund.succeeded"
        case refundFailed = "refund.failed"
    }

    /// One notification. The host answers 204 when it took it (or had already: idempotent on `id`),
    /// 409 with its error envelope when the order can no longer take it (a payment after the
    /// order closed: the wallet then does not charge the customer), and the wallet retries
    /// anything else until the host acknowledges, across restarts of either side.
    public struct Notification: Codable, Sendable, Equatable {
        /// Unique per notification, for the host's de-duplication.
        public var id: String
        public var type: NotificationType
        public var orderId: String
        /// For refund notifications.
        public var refundId: String?
        /// The wallet's payment (or refund) id, for `order.paid` and `refund.succeeded`.
        public var paymentId: String?
        /// For `order.declined` and `refund.failed`: an ``APMDeclineReason`` raw value.
        public var reason: String?

        public init(
            id: String, type: NotificationType, orderId: String, refundId: String? = nil, paymentId: String? = nil,
            reason: String? = nil
        ) {
            self.id = id
            self.type = type
            self.orderId = orderId
            self.refundId = refundId
            self.paymentId = paymentId
            self.reason = reason
        }
    }
}
