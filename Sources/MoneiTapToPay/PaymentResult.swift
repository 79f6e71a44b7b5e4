/// What ``TapToPay/acceptPayment(amount:orderId:callbackUrl:)`` returns: the card was read and
/// MONEI answered.
///
/// A ``Status/declined`` result is not an error: the issuer declined, and the payment is in MONEI
/// with its ``paymentId``. Use the result for the UI only; the signed callback is the trusted one.
///
/// ```swift
/// switch result.status {
/// case .approved: showApproved(result)
/// case .declined: showDeclined(result)
/// @unknown default: showPending(orderId)
/// }
/// ```
public struct PaymentResult: Sendable, Equatable, Hashable {
    /// How the payment ended. Not frozen: a `switch` needs `@unknown default`.
    public enum Status: Sendable, Equatable, Hashable {
        case approved
        case declined
    }

    /// The MONEI payment id (`GET /v1/payments/{id}`).
    public let paymentId: String
    public let status: Status
    /// The card network in lower case (`visa`, `mastercard`, `amex` …), `unknown` for a network
    /// the SDK does not know, `nil` when the network is not available.
    public let cardBrand: String?
    /// The card's last four digits, or `nil`.
    public let last4: String?
    /// The `orderId` of the payment.
    public let orderId: String

    public init(paymentId: String, status: Status, cardBrand: String?, last4: String?, orderId: String) {
        self.paymentId = paymentId
        self.status = status
        self.cardBrand = cardBrand
        self.last4 = last4
        self.orderId = orderId
    }

    /// The networks the SDK names; any other becomes `unknown`.
    static let knownBrands: Set<String> = ["visa", "mastercard", "amex", "diners", "discover", "jcb", "unionpay", "maestro"]
}
