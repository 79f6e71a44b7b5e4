import CardPayload
import SandboxHTTP

/// The stable error codes of card payments (docs/card-payments.md).
extension HTTPError {
    static let cardPayloadInvalid = HTTPError(
        status: 400, code: "card_payload_invalid",
        message: "The card payload does not open with this terminal's reader key (tampered, or made for another terminal).",
        field: "cardPayload")
    /// The refusal of a card that opened but breaks a rule of a card read, or `nil` when `error`
    /// is about the payload itself (then it is ``cardPayloadInvalid``).
    ///
    /// Codes: `invalid_pan` (not 12–19 digits, or fails Luhn), `invalid_card_country` (not an
    /// ISO 3166-1 country), `brand_mismatch` (the PAN's IIN range or length, or the AID, is not
    /// the brand's), `unknown_brand`, `unknown_cvm`, `invalid_card_data` (expiry, AID, label or
    /// PAN sequence out of shape). The message names the field and the rule.
    static func cardRefused(_ error: PayloadError) -> HTTPError? {
        let code: String
        switch error {
        case .invalidPAN: code = "invalid_pan"
        case .invalidCountry: code = "invalid_card_country"
        case .brandMismatch: code = "brand_mismatch"
        case .unknownBrand: code = "unknown_brand"
        case .unknownCVM: code = "unknown_cvm"
        case .invalidCardData: code = "invalid_card_data"
        default: return nil
        }
        return HTTPError(status: 400, code: code, message: error.message, field: "cardPayload")
    }
    static let cardPayloadReplayed = HTTPError(
        status: 409, code: "card_payload_replayed", message: "This card read was already used for a transaction.",
        field: "cardPayload")
    static let pinPayloadInvalid = HTTPError(
        status: 400, code: "card_payload_invalid", message: "The PIN payload does not open with this terminal's reader key.",
        field: "pinPayload")
    static let terminalBusy = HTTPError(
        status: 409, code: "terminal_busy", message: "Another transaction is in progress on this terminal; finish it first.")
    static let transactionNotFound = HTTPError(
        status: 404, code: "transaction_not_found", message: "No such transaction on this terminal.", field: "transactionId")
    static func wrongState(_ message: String) -> HTTPError {
        HTTPError(status: 409, code: "transaction_wrong_state", message: message, field: "transactionId")
    }
    static let reversalNotAllowed = HTTPError(
        status: 403, code: "reversal_not_allowed", message: "This terminal does not allow reversals.")
    static let refundNotAllowed = HTTPError(
        status: 403, code: "refund_not_allowed", message: "This terminal does not allow refunds.")
    static let notCancellable = HTTPError(
        status: 409, code: "transaction_not_cancellable",
        message: "Only the terminal's latest cleared sale can be reversed, within 30 minutes.", field: "transactionId")
    static let stillCancellable = HTTPError(
        status: 409, code: "transaction_still_cancellable",
        message: "The sale can still be reversed: reverse it instead of refunding it.", field: "transactionId")
    static let alreadyRefunded = HTTPError(
        status: 409, code: "already_refunded", message: "The sale was refunded already.", field: "transactionId")
    static let refundOverAmount = HTTPError(
        status: 400, code: "refund_over_amount", message: "A refund cannot exceed the original amount.", field: "requestedAmount")
    static let checkoutNotFound = HTTPError(
        status: 404, code: "checkout_not_found", message: "No such checkout for this terminal.", field: "checkoutId")
    static let checkoutUsed = HTTPError(
        status: 409, code: "checkout_used", message: "The checkout was used by another transaction.", field: "checkoutId")
    static let checkoutExpired = HTTPError(
        status: 410, code: "checkout_expired", message: "The checkout expired.", field: "checkoutId")
    static func checkoutMismatch(_ field: String) -> HTTPError {
        HTTPError(
            status: 409, code: "checkout_mismatch", message: "The \(field) differs from the pre-registered checkout.", field: field)
    }
    static let idempotencyKeyReused = HTTPError(
        status: 409, code: "idempotency_key_reused",
        message: "This Idempotency-Key was used with another request body.", field: "header.Idempotency-Key")
    static let sessionExpiring = HTTPError(
        status: 409, code: "session_expiring", message: "The session ends in less than a minute: log in again first.")
}
