import WalletStorage
import SandboxWire

/// The wallet's refusals: each knows its status and becomes the one error envelope.
public struct WalletError: ServiceError, Equatable {
    public let status: Int
    public let code: ErrorCode
    public let message: String
    public let field: String?

    package init(_ status: Int, _ code: ErrorCode, _ message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    public static func == (lhs: WalletError, rhs: WalletError) -> Bool {
        lhs.status == rhs.status && lhs.code == rhs.code && lhs.message == rhs.message && lhs.field == rhs.field
    }

    package static func invalid(_ message: String, field: String, code: ErrorCode = .invalidRequest) -> WalletError {
        WalletError(400, code, message, field: field)
    }

    package static let signatureInvalid = WalletError(
        401, .providerSignatureInvalid, "The request has no valid Wallet-Signature for its Wallet-Region.",
        field: "header.Wallet-Signature")

    package static func signatureInvalid(_ why: String, field: String = "header.Wallet-Signature") -> WalletError {
        WalletError(401, .providerSignatureInvalid, "The request has no valid Wallet-Signature for its Wallet-Region: \(why)", field: field)
    }

    package static let orderNotFound = WalletError(404, .orderNotFound, "The wallet has no order with that id.", field: "orderId")

    package static func notPayable(_ status: WalletProvider.OrderStatus) -> WalletError {
        WalletError(409, .orderNotPayable, "The order is \(status.rawValue): it can no longer be scanned, paid, declined or expired.")
    }

    package static let orderPaid = WalletError(409, .orderPaid, "The customer paid this order: it cannot be closed, refund it instead.")

    package static let orderReused = WalletError(
        409, .idempotencyKeyReused, "An order with this orderId exists already with other details.", field: "orderId")

    package static let refundReused = WalletError(
        409, .idempotencyKeyReused, "A refund with this refundId exists already with other details.", field: "refundId")

    package static func refundNotAllowed(_ status: WalletProvider.OrderStatus) -> WalletError {
        WalletError(409, .refundNotAllowed, "The order is \(status.rawValue): only a paid order can be refunded.", field: "orderId")
    }

    package static func refundOverAmount(left: Int) -> WalletError {
        WalletError(409, .refundOverAmount, "The refund is more than is left of the payment (\(left) minor units).", field: "amount")
    }

    // MARK: BLIK (docs/blik.md)

    package static func blikCodeInvalid(_ message: String, field: String) -> WalletError { WalletError(400, .blikCodeInvalid, message, field: field) }

    package static let blikCodeUnknown = WalletError(404, .blikCodeUnknown, "No bank app issued this BLIK code.", field: "payCode")

    package static let blikCodeExpired = WalletError(410, .blikCodeExpired, "The BLIK code lived its 120 seconds: ask the customer for a new one.", field: "payCode")

    package static let blikCodeUsed = WalletError(409, .blikCodeUsed, "The BLIK code was used already: a code pays once.", field: "payCode")

    package static let blikVerificationFailed = WalletError(
        403, .blikVerificationFailed, "The verification code does not belong to this 9-digit BLIK code.", field: "verificationCode")

    package static let customerNotFound = WalletError(404, .customerNotFound, "The bank has no customer with that id.", field: "customerId")

    package static let blikNoScan = WalletError(409, .orderNotPayable, "A BLIK order has no QR to scan: approve or decline it.")

    /// The refusal a code table entry names.
    package static func blikRefusal(_ code: String) -> WalletError {
        switch code {
        case "blik_code_expired": blikCodeExpired
        case "blik_code_used": blikCodeUsed
        case "blik_verification_failed": blikVerificationFailed
        default: blikCodeUnknown
        }
    }

    package static let ruleNotFound = WalletError(404, .ruleNotFound, "The wallet has no standing rule with that id.", field: "ruleId")
}
