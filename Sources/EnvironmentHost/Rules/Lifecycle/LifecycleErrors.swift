import HostStorage
import SandboxWire

/// The refusals of the terminal lifecycle's rules, with their stable codes
/// (docs/terminal-lifecycle.md, "Error codes"): the rules throw them and the router answers with
/// their envelope, so no rule builds a response.
struct LifecycleError: ServiceError, Equatable {
    let status: Int
    let code: ErrorCode
    let message: String
    var field: String? = nil
    /// Seconds a throttled client waits (`Retry-After`), for ``tooManyAttempts(retryAfter:)`` only.
    var retryAfterSeconds: Int? = nil

    var headers: [(String, String)] { retryAfterSeconds.map { [("Retry-After", String($0))] } ?? [] }

    /// A value of a lifecycle request out of its rules (`field` names it): every surface's `invalid_request`.
    static func invalidRequest(_ message: String, field: String) -> LifecycleError {
        LifecycleError(status: 400, code: .invalidRequest, message: message, field: field)
    }
    static let unauthorized = LifecycleError(
        status: 401, code: .unauthorized, message: "Missing or wrong credentials.", field: "header.Authorization")
    /// A device credential (in the body, not a header) that names no device or has the wrong secret.
    static let wrongDeviceCredential = LifecycleError(
        status: 401, code: .unauthorized, message: "Unknown device or wrong device secret.", field: "deviceSecret")
    static let sessionExpired = LifecycleError(
        status: 401, code: .sessionExpired, message: "The session has ended; log in again with the secure code.")
    static let terminalUnregistered = LifecycleError(
        status: 401, code: .terminalUnregistered, message: "This device is not registered; register it again.")
    static let certificatesExpired = LifecycleError(
        status: 401, code: .certificatesExpired,
        message: "The device did not log in for more than three months: its certificates expired and it was unregistered.")

    static let challengeNotFound = LifecycleError(
        status: 404, code: .challengeNotFound, message: "No such challenge code on this host.", field: "challengeCode")
    static let challengeExpired = LifecycleError(
        status: 410, code: .challengeExpired, message: "The challenge code expired; begin the registration again.",
        field: "challengeCode")
    static let challengeUsed = LifecycleError(
        status: 409, code: .challengeUsed, message: "The challenge code was already confirmed.", field: "challengeCode")

    static let backOfficeCodeInvalid = LifecycleError(
        status: 404, code: .backofficeCodeInvalid, message: "No such back-office code on this host.", field: "backofficeCode")
    static let backOfficeCodeExpired = LifecycleError(
        status: 410, code: .backofficeCodeExpired, message: "The back-office code expired; confirm the challenge again.",
        field: "backofficeCode")
    static let backOfficeCodeUsed = LifecycleError(
        status: 409, code: .backofficeCodeUsed, message: "The back-office code was already used.", field: "backofficeCode")
    static let backOfficeCodeWrongEnvironment = LifecycleError(
        status: 400, code: .backofficeCodeWrongEnvironment,
        message: "The back-office code was issued by another environment.", field: "backofficeCode")
    static let backOfficeCodeWrongDevice = LifecycleError(
        status: 403, code: .backofficeCodeWrongDevice,
        message: "The back-office code belongs to another device's challenge.", field: "backofficeCode")

    static let tokenInvalid = LifecycleError(
        status: 404, code: .registrationTokenInvalid, message: "No such registration token on this host.",
        field: "registrationToken")
    static let tokenExpired = LifecycleError(
        status: 410, code: .registrationTokenExpired, message: "The registration token expired; ask for a new one.",
        field: "registrationToken")
    static let tokenUsed = LifecycleError(
        status: 409, code: .registrationTokenUsed, message: "The registration token was already used.",
        field: "registrationToken")
    static let tokenWrongEnvironment = LifecycleError(
        status: 400, code: .registrationTokenWrongEnvironment,
        message: "The registration token was issued by another environment.", field: "registrationToken")
    static func outOfOrder(_ expected: String) -> LifecycleError {
        LifecycleError(
            status: 409, code: .registrationOutOfOrder, message: "Token registration runs verify, begin, end: \(expected).",
            field: "registrationToken")
    }
    static let registrationWrongDevice = LifecycleError(
        status: 403, code: .registrationWrongDevice, message: "Another device began this registration.",
        field: "deviceId")

    static let terminalInUse = LifecycleError(
        status: 409, code: .terminalInUse, message: "The terminal already has a registered device.", field: "terminalId")
    static let noFreeTerminal = LifecycleError(
        status: 409, code: .noFreeTerminal, message: "The merchant has no terminal without a device.", field: "merchantId")
    static let terminalNotFound = LifecycleError(
        status: 404, code: .terminalNotFound, message: "No such terminal.", field: "terminalId")
    static let unknownAppKey = LifecycleError(
        status: 401, code: .unknownAppKey, message: "No partner app of this region has that appKey.", field: "appKey")
    static let merchantNotFound = LifecycleError(
        status: 404, code: .merchantNotFound, message: "No such merchant.", field: "merchantId")
    static let terminalNotRegistered = LifecycleError(
        status: 409, code: .terminalNotRegistered, message: "The terminal has no registered device.")
    static func registrationMethodNotAllowed(_ method: String) -> LifecycleError {
        LifecycleError(
            status: 409, code: .registrationMethodNotAllowed,
            message: "The terminal does not allow registration by \(method).", field: "terminalId")
    }
    static let deviceAlreadyRegistered = LifecycleError(
        status: 409, code: .deviceAlreadyRegistered, message: "This device is registered already; unregister it first.",
        field: "deviceId")

    static let pinRequired = LifecycleError(
        status: 400, code: .pinRequired, message: "This terminal has no auto-login: the secure code is required.", field: "pin")
    static func invalidPin(remaining: Int) -> LifecycleError {
        LifecycleError(
            status: 401, code: .invalidPin,
            message: "Wrong secure code; \(remaining) attempt\(remaining == 1 ? "" : "s") left before the device is locked.",
            field: "pin")
    }
    /// A registration token waits for the terminal: nobody registers it by challenge code meanwhile.
    static func terminalLockedByToken(until: String) -> LifecycleError {
        LifecycleError(
            status: 409, code: .terminalLockedByToken,
            message: "A registration token for this terminal is valid until \(until): register with it, or wait.", field: "terminalId")
    }
    static let secureCodeLocked = LifecycleError(
        status: 423, code: .secureCodeLocked, message: "Too many wrong secure codes; the back office must unlock the device.")
    /// Too many wrong codes from this address or device (``AttemptThrottle``): a wait, not a lock
    /// of the code, which its owner can still use afterwards.
    static func tooManyAttempts(retryAfter milliseconds: Int64) -> LifecycleError {
        let seconds = Int(max(1, (milliseconds + 999) / 1000))
        return LifecycleError(
            status: 429, code: .tooManyAttempts,
            message: "Too many wrong codes from this device or address; try again in \(seconds) s.", retryAfterSeconds: seconds)
    }
}

extension LifecycleError {
    static let readerTokenInvalid = LifecycleError(
        status: 401, code: .readerTokenInvalid, message: "The reader token was not issued by this region's host.", field: "readerToken")
    static let readerTokenExpired = LifecycleError(
        status: 401, code: .readerTokenExpired, message: "The reader token has expired: ask the merchant's backend for a new one.",
        field: "readerToken")
}
