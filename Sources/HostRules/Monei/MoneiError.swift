import HostStorage
import SandboxWire

/// A refusal on the MONEI routes, answered with MONEI's error body instead of the sandbox envelope:
/// `{"status": "Unauthorized", "statusCode": 401, "message": "…", "requestId": "…", "code": "unauthorized"}`.
///
/// Rules throw the sandbox's own errors (``PaymentError``, `HTTPError` …); the MONEI routes turn
/// whatever their handler throws into one of these (Routes/MoneiError+Response.swift), so every
/// answer of theirs, bad JSON included, has the body MONEI's clients parse.
package struct MoneiError: ServiceError {
    package let status: Int
    package let code: ErrorCode
    package let message: String
    package let field: String?
    /// Extra headers (the `Allow` of a 405).
    package var headers: [(String, String)] = []
    /// The request's `X-Request-Id`, repeated in the body as MONEI's `requestId`.
    package var requestId: String = ""

    package init(status: Int, code: ErrorCode, message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    /// MONEI's `status`: the HTTP reason phrase of the status code.
    package static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 413: "Payload Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 503: "Service Unavailable"
        default: status >= 500 ? "Internal Server Error" : "Error"
        }
    }

    // MARK: - The refusals of the MONEI rules

    package static let missingKey = MoneiError(
        status: 401, code: .unauthorized, message: "Send your API key as Authorization: <API key>, with no scheme word.",
        field: "header.Authorization")
    package static let wrongKey = MoneiError(status: 401, code: .unauthorized, message: "Unknown API key.", field: "header.Authorization")
    package static let missingToken = MoneiError(
        status: 401, code: .unauthorized, message: "Send the POS token as Authorization: Bearer <token>.", field: "header.Authorization")
    /// Forged, damaged or made by another host: the device's `invalidToken`.
    package static let invalidToken = MoneiError(
        status: 401, code: .unauthorized, message: "The POS token is not valid.", field: "header.Authorization")
    /// Older than 24 hours on the host's clock: the device's `tokenExpired`.
    package static let tokenExpired = MoneiError(
        status: 401, code: .sessionExpired, message: "The POS token expired; ask your backend for a new one.", field: "header.Authorization")
    package static func storeNotFound(_ id: String) -> MoneiError {
        MoneiError(status: 404, code: .notFound, message: "Store \(id) not found.", field: "storeId")
    }
    package static func pointOfSaleNotFound(_ id: String) -> MoneiError {
        MoneiError(status: 404, code: .terminalNotFound, message: "Point of sale \(id) not found.", field: "pointOfSaleId")
    }
    package static let noStore = MoneiError(
        status: 422, code: .invalidRequest, message: "The account has no store with a point of sale.", field: "storeId")
    package static let paymentNotFound = MoneiError(status: 404, code: .transactionNotFound, message: "Payment not found.", field: "id")
    package static let busy = MoneiError(
        status: 409, code: .terminalBusy, message: "Another payment is in progress on this point of sale; wait for its result.")
    /// The callbackUrl was refused after the card read: no payment was made; the device's `outcomeUnknown`.
    package static func callbackRefused(_ reason: String) -> MoneiError {
        MoneiError(status: 422, code: .outcomeUnknown, message: "No payment was made: \(reason).", field: "callbackUrl")
    }
    package static func invalid(_ message: String, field: String) -> MoneiError {
        MoneiError(status: 400, code: .invalidRequest, message: message, field: field)
    }
    package static func notRefundable(_ status: String) -> MoneiError {
        MoneiError(status: 409, code: .transactionNotRefundable, message: "A payment that is \(status) cannot be refunded.", field: "id")
    }
    package static let alreadyRefunded = MoneiError(status: 409, code: .alreadyRefunded, message: "The payment is refunded in full already.", field: "id")
    package static func refundOverAmount(left: Int) -> MoneiError {
        MoneiError(
            status: 422, code: .refundOverAmount, message: "The refund is more than the \(left) cents of the payment left to refund.",
            field: "amount")
    }
}
