import HostStorage
import SandboxWire

/// The refusals of the terminal lifecycle's rules, with their stable codes
/// (docs/terminal-lifecycle.md, "Error codes"): the rules throw them and the router answers with
/// their envelope, so no rule builds a response.
package struct LifecycleError: ServiceError, Equatable {
    package let status: Int
    package let code: ErrorCode
    package let message: String
    package var field: String? = nil
    /// Seconds a throttled client waits (`Retry-After`), for ``tooManyAttempts(retryAfter:)`` only.
    package var retryAfterSeconds: Int? = nil

    package var headers: [(String, String)] { retryAfterSeconds.map { [("Retry-After", String($0))] } ?? [] }

    /// A value of a lifecycle request out of its rules (`field` names it): every surface's `invalid_request`.
    package static func invalidRequest(_ message: String, field: String) -> LifecycleError {
        LifecycleError(status: 400, code: .invalidRequest, message: message, field: field)
    }
    package static let unauthorized = LifecycleError(
        status: 401, code: .unauthorized, message: "Missing or wrong credentials.", field: "header.Authorization")
    /// A device credential (in the body, not a header) that names no device or has the wrong secret.
    package static let wrongDeviceCredential = LifecycleError(
        status: 401, code: .unauthorized, message: "Unknown device or wrong device secret.", field: "deviceSecret")
    package static let sessionExpired = LifecycleError(
        status: 401, code: .sessionExpired, message: "The session has ended; log in again with the secure code.")
    package static let terminalUnregistered = LifecycleError(
        status: 401, code: .terminalUnregistered, message: "This device is not registered; register it again.")
    package static let certificatesExpired = LifecycleError(
        status: 401, code: .certificatesExpired,
        message: "The device did not log in for more than three months: its certificates expired and it was unregistered.")

    package static let challengeNotFound = LifecycleError(
        status: 404, code: .challengeNotFound, message: "No such challenge code on this host.", field: "challengeCode")
    package static let challengeExpired = LifecycleError(
        status: 410, code: .challengeExpired, message: "The challenge code expired; begin the registration again.",
        field: "challengeCode")
    package static let challengeUsed = LifecycleError(
        status: 409, code: .challengeUsed, message: "The challenge code was already confirmed.", field: "challengeCode")

    package static let backOfficeCodeInvalid = LifecycleError(
        status: 404, code: .backofficeCodeInvalid, message: "No such back-office code on this host.", field: "backofficeCode")
    package static let backOfficeCodeExpired = LifecycleError(
        status: 410, code: .backofficeCodeExpired, message: "The back-office code expired; confirm the challenge again.",
        field: "backofficeCode")
    package static let backOfficeCodeUsed = LifecycleError(
        status: 409, code: .backofficeCodeUsed, message: "The back-office code was already used.", field: "backofficeCode")
    package static let backOfficeCodeWrongEnvironment = LifecycleError(
        status: 400, code: .backofficeCodeWrongEnvironment,
        message: "The back-office code was issued by another environment.", field: "backofficeCode")
    package static let backOfficeCodeWrongDevice = LifecycleError(
        status: 403, code: .backofficeCodeWrongDevice,
        message: "The back-office code belongs to another device's challenge.", field: "backofficeCode")

    package static let tokenInvalid = LifecycleError(
        status: 404, code: .registrationTokenInvalid, message: "No such registration token on this host.",
        field: "registrationToken")
    package static let tokenExpired = LifecycleError(
        status: 410, code: .registrationTokenExpired, message: "The registration token expired; ask for a new one.",
        field: "registrationToken")
    package static let tokenUsed = LifecycleError(
        status: 409, code: .registrationTokenUsed, message: "The registration token was already used.",
        field: "registrationToken")
    package static let tokenWrongEnvironment = LifecycleError(
        status: 400, code: .registrationTokenWrongEnvironment,
        message: "The registration token was issued by another environment.", field: "registrationToken")
    package static func outOfOrder(_ expected: String) -> LifecycleError {
        LifecycleError(
            status: 409, code: .registrationOutOfOrder, message: "Token registration runs verify, begin, end: \(expected).",
            field: "registrationToken")
    }
    package static let registrationWrongDevice = LifecycleError(
        status: 403, code: .registrationWrongDevice, message: "Another device began this registration.",
        field: "deviceId")

    package static let terminalInUse = LifecycleError(
        status: 409, code: .terminalInUse, message: "The terminal already has a registered device.", field: "terminalId")
    package static let noFreeTerminal = LifecycleError(
        status: 409, code: .noFreeTerminal, message: "The merchant has no terminal without a device.", field: "merchantId")
    package static let terminalNotFound = LifecycleError(
        status: 404, code: .terminalNotFound, message: "No such terminal.", field: "terminalId")
    package static let unknownAppKey = LifecycleError(
        status: 401, code: .unknownAppKey, message: "No partner app of this region has that appKey.", field: "appKey")
    package static let merchantNotFound = LifecycleError(
        status: 404, code: .merchantNotFound, message: "No such merchant.", field: "merchantId")
    package static let terminalNotRegistered = LifecycleError(
        status: 409, code: .terminalNotRegistered, message: "The terminal has no registered device.")
    package static func registrationMethodNotAllowed(_ method: String) -> LifecycleError {
        LifecycleError(
            status: 409, code: .registrationMethodNotAllowed,
            message: "The terminal does not allow registration by \(method).", field: "terminalId")
    }
    package static let deviceAlreadyRegistered = LifecycleError(
        status: 409, code: .deviceAlreadyRegistered, message: "This device is registered already; unregister it first.",
        field: "deviceId")

    package static let pinRequired = LifecycleError(
        status: 400, code: .pinRequired, message: "This terminal has no auto-login: the secure code is required.", field: "pin")
    package static func invalidPin(remaining: Int) -> LifecycleError {
        LifecycleError(
            status: 401, code: .invalidPin,
            message: "Wrong secure code; \(remaining) attempt\(remaining == 1 ? "" : "s") left before the device is locked.",
            field: "pin")
    }
    /// A registration token waits for the terminal: nobody registers it by challenge code meanwhile.
    package static func terminalLockedByToken(until: String) -> LifecycleError {
        LifecycleError(
            status: 409, code: .terminalLockedByToken,
            message: "A registration token for this terminal is valid until \(until): register with it, or wait.", field: "terminalId")
    }
    package static let secureCodeLocked = LifecycleError(
        status: 423, code: .secureCodeLocked, message: "Too many wrong secure codes; the back office must unlock the device.")
    /// Too many wrong codes from this address or device (``AttemptThrottle``): a wait, not a lock
    /// of the code, which its owner can still use afterwards.
    package static func tooManyAttempts(retryAfter milliseconds: Int64) -> LifecycleError {
        let seconds = Int(max(1, (milliseconds + 999) / 1000))
        return LifecycleError(
            status: 429, code: .tooManyAttempts,
            message: "Too many wrong codes from this device or address; try again in \(seconds) s.", retryAfterSeconds: seconds)
    }
}

extension LifecycleError {
    package static let readerTokenInvalid = LifecycleError(
        status: 401, code: .readerTokenInvalid, message: "The reader token was not issued by this region's host.", field: "readerToken")
    package static let readerTokenExpired = LifecycleError(
        status: 401, code: .readerTokenExpired, message: "The reader token has expired: ask the merchant's backend for a new one.",
        field: "readerToken")
}
