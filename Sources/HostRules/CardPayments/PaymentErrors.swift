import HostStorage
import CardPayload
import SandboxCore
import SandboxWire

/// The refusals of card payments, with their stable codes (docs/card-payments.md, "Error codes"):
/// the rules throw them and the router answers with their envelope, so no rule builds a response.
package struct PaymentError: ServiceError, Equatable {
    package let status: Int
    package let code: ErrorCode
    package let message: String
    package var field: String? = nil

    /// A value of a payment request out of its rules (`field` names it): every surface's `invalid_request`.
    package static func invalidRequest(_ message: String, field: String) -> PaymentError {
        PaymentError(status: 400, code: .invalidRequest, message: message, field: field)
    }
    package static let cardPayloadInvalid = PaymentError(
        status: 400, code: .cardPayloadInvalid,
        message: "The card payload does not open with this terminal's reader key (tampered, or made for another terminal).",
        field: "cardPayload")
    /// A read dated too far ahead of the host's clock: a forged payload.
    package static let cardReadInTheFuture = PaymentError(
        status: 400, code: .cardPayloadInvalid, message: "The card read is dated in the future of the host's clock.",
        field: "cardPayload")
    /// The refusal of a card that opened but breaks a rule of a card read, or `nil` when `error`
    /// is about the payload itself (then it is ``cardPayloadInvalid``).
    ///
    /// Codes: `invalid_pan` (not 12–19 digits, or fails Luhn), `invalid_card_country` (not an
    /// ISO 3166-1 country), `brand_mismatch` (the PAN's IIN range or length, or the AID, is not
    /// the brand's), `unknown_brand`, `unknown_cvm`, `invalid_card_data` (expiry, AID, label or
    /// PAN sequence out of shape). The message names the field and the rule.
    package static func cardRefused(_ error: PayloadError) -> PaymentError? {
        let code: ErrorCode
        switch error {
        case .invalidPAN: code = .invalidPan
        case .invalidCountry: code = .invalidCardCountry
        case .brandMismatch: code = .brandMismatch
        case .unknownBrand: code = .unknownBrand
        case .unknownCVM: code = .unknownCvm
        case .invalidCardData: code = .invalidCardData
        default: return nil
        }
        return PaymentError(status: 400, code: code, message: error.message, field: "cardPayload")
    }
    package static let cardPayloadReplayed = PaymentError(
        status: 409, code: .cardPayloadReplayed, message: "This card read was already used for a transaction.",
        field: "cardPayload")
    package static let pinPayloadInvalid = PaymentError(
        status: 400, code: .cardPayloadInvalid, message: "The PIN payload does not open with this terminal's reader key.",
        field: "pinPayload")
    package static let terminalBusy = PaymentError(
        status: 409, code: .terminalBusy, message: "Another transaction is in progress on this terminal; finish it first.")
    package static let transactionNotFound = PaymentError(
        status: 404, code: .transactionNotFound, message: "No such transaction on this terminal.", field: "transactionId")
    package static func wrongState(_ message: String) -> PaymentError {
        PaymentError(status: 409, code: .transactionWrongState, message: message, field: "transactionId")
    }
    /// A reversal that names another amount than the sale's (PagBank's cancel checks it).
    package static func amountMismatch(_ saleAmount: Int) -> PaymentError {
        PaymentError(
            status: 409, code: .amountMismatch, message: "The sale is \(saleAmount) minor units; a cancel names its whole amount.",
            field: "expectedAmount")
    }

    package static let reversalNotAllowed = PaymentError(
        status: 403, code: .reversalNotAllowed, message: "This terminal does not allow reversals.")
    package static let refundNotAllowed = PaymentError(
        status: 403, code: .refundNotAllowed, message: "This terminal does not allow refunds.")
    package static let cardMismatch = PaymentError(
        status: 409, code: .cardMismatch, message: "The card read for the cancel is not the card the sale was paid with.",
        field: "cardPayload")
    package static let notCancellable = PaymentError(
        status: 409, code: .transactionNotCancellable,
        message: "Only the terminal's latest cleared sale can be reversed, within 30 minutes.", field: "transactionId")
    package static let stillCancellable = PaymentError(
        status: 409, code: .transactionStillCancellable,
        message: "The sale can still be reversed: reverse it instead of refunding it.", field: "transactionId")
    package static let alreadyRefunded = PaymentError(
        status: 409, code: .alreadyRefunded, message: "The sale was refunded already.", field: "transactionId")
    package static let refundOverAmount = PaymentError(
        status: 400, code: .refundOverAmount, message: "A refund cannot exceed the original amount.", field: "requestedAmount")
    /// A refund of a refund.
    package static let refundOfRefund = PaymentError(
        status: 409, code: .transactionNotRefundable, message: "Only a sale can be refunded.", field: "transactionId")
    /// A refund of a sale that is not `CLEARED` (declined, cancelled, refunded).
    package static func notRefundable(status: String) -> PaymentError {
        PaymentError(
            status: 409, code: .transactionNotRefundable,
            message: "Only a CLEARED sale can be refunded; this one is \(status).", field: "transactionId")
    }
    /// A refund in another currency than its sale's.
    package static func refundCurrencyMismatch(_ saleCurrency: String) -> PaymentError {
        PaymentError(
            status: 400, code: .currencyMismatch, message: "A refund is in the sale's currency, \(saleCurrency).", field: "currency")
    }
    package static let checkoutNotFound = PaymentError(
        status: 404, code: .checkoutNotFound, message: "No such checkout for this terminal.", field: "checkoutId")
    package static let checkoutUsed = PaymentError(
        status: 409, code: .checkoutUsed, message: "The checkout was used by another transaction.", field: "checkoutId")
    package static let checkoutExpired = PaymentError(
        status: 410, code: .checkoutExpired, message: "The checkout expired.", field: "checkoutId")
    package static func checkoutMismatch(_ field: String) -> PaymentError {
        PaymentError(
            status: 409, code: .checkoutMismatch, message: "The \(field) differs from the pre-registered checkout.", field: field)
    }
    package static let idempotencyKeyReused = PaymentError(
        status: 409, code: .idempotencyKeyReused,
        message: "This Idempotency-Key was used with another request body.", field: "header.Idempotency-Key")
    package static let sessionExpiring = PaymentError(
        status: 409, code: .sessionExpiring, message: "The session ends in less than a minute: log in again first.")
    /// Details by a reference that several transactions carry.
    package static let referenceNotUnique = PaymentError(
        status: 409, code: .referenceNotUnique, message: "Several transactions carry this reference; use the id.",
        field: "reference")
    package static let receiptNotFound = PaymentError(status: 404, code: .receiptNotFound, message: "No such receipt.")
    /// A refused `callbackUrl` (`reason` says why): no payment was created, and the device cannot
    /// know whether the card was charged.
    package static func outcomeUnknown(_ reason: String) -> PaymentError {
        PaymentError(
            status: 422, code: .outcomeUnknown,
            message: "No payment was created: \(reason). Do not retry with a new order.", field: "callbackUrl")
    }
}

extension PaymentError {
    /// A refusal of SandboxCore's pure payment rules, with its status; `field`, when given, names
    /// the request's field instead of the rule's (a validate call's amount).
    package init(_ error: PaymentRuleError, field: String? = nil) {
        self.init(status: error.code.httpStatus, code: error.code.errorCode, message: error.message, field: field ?? error.field)
    }
}
