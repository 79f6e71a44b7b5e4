import HostStorage
import SandboxWire

/// The refusals of BLIK payments (docs/blik.md, "Errors"): the host's own (the terminal, the
/// code's shape) and the wallet's code-stage refusals, relayed as the wallet gave them.
extension PaymentError {
    package static let blikNotEnabled = PaymentError(
        status: 403, code: .blikNotEnabled, message: "This terminal takes no BLIK payments (blikEnabled is false).")

    package static func blikCodeInvalid(_ message: String, field: String) -> PaymentError {
        PaymentError(status: 400, code: .blikCodeInvalid, message: message, field: field)
    }

    /// The codes the wallet answers `POST /provider/v1/blik/payments` with about the code itself:
    /// the device hears them as they are, since the customer has to be told which one it was.
    package static let blikCodeRefusals: Set<ErrorCode> = [
        .blikCodeInvalid, .blikCodeUnknown, .blikCodeExpired, .blikCodeUsed, .blikVerificationFailed, .customerNotFound,
    ]

    /// The wallet's refusal of a code, relayed (its status, code and message; the field the code's).
    package static func blikRefused(status: Int, _ body: ErrorEnvelope.Body) -> PaymentError {
        let field = body.field ?? (body.code == .blikVerificationFailed ? "verificationCode" : "payCode")
        let message = body.message ?? "The BLIK provider refused the code (\(body.code.rawValue))."
        return PaymentError(status: status, code: body.code, message: message, field: field)
    }

    /// A BLIK refund of a payment that is not BLIK, or a QR refund of one that is not QR.
    package static func notAPMPayment(_ method: PaymentMethod) -> PaymentError {
        let what = method == .BLIK ? "Only a BLIK payment can be refunded by a BLIK refund." : "Only a QR wallet payment can be refunded by a QR refund."
        return PaymentError(status: 409, code: .transactionNotRefundable, message: what, field: "refundedTransactionId")
    }
}
