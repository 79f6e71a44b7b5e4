import HostStorage
import SandboxWire

/// The refusals of QR wallet payments (docs/qr-payments.md, "Errors").
extension PaymentError {
    package static let apmNotEnabled = PaymentError(
        status: 403, code: .apmNotEnabled, message: "This terminal takes no QR wallet payments (apmEnabled is false).")
    package static func apmBrandUnavailable(_ brand: String, active: [String]) -> PaymentError {
        PaymentError(
            status: 400, code: .apmBrandUnavailable,
            message: "The brand \(brand) is none of this terminal's active brands (\(active.isEmpty ? "none" : active.joined(separator: ", "))).",
            field: "brand")
    }
    /// The order (or refund) is final already: nothing can change it.
    package static func apmOrderClosed(_ status: TransactionStatus) -> PaymentError {
        PaymentError(
            status: 409, code: .apmOrderClosed, message: "The order is closed already (\(status.rawValue)): nothing can change it.",
            field: "transactionId")
    }
    package static let apmAlreadyPaid = PaymentError(
        status: 409, code: .apmAlreadyPaid, message: "The customer paid this order already: refund it instead.", field: "transactionId")
    package static func apmProviderUnavailable(_ why: String) -> PaymentError {
        PaymentError(status: 502, code: .apmProviderUnavailable, message: "The wallet provider did not answer (\(why)); no order was made.")
    }
    package static func providerSignatureInvalid(_ why: String) -> PaymentError {
        PaymentError(status: 401, code: .providerSignatureInvalid, message: why, field: "header.\(WalletProvider.signatureHeader)")
    }
    /// A card refund of a QR (or BLIK) payment.
    package static let qrPaymentByCard = PaymentError(
        status: 409, code: .transactionNotRefundable,
        message: "A QR wallet or BLIK payment is refunded by its own refund (doQRRefund, doBlikRefund).",
        field: "transactionId")
    package static func qrRefundOverAmount(left: Int) -> PaymentError {
        PaymentError(
            status: 400, code: .refundOverAmount, message: "A refund cannot exceed what is left of the payment (\(left)).",
            field: "refundAmount")
    }
}
