import SandboxHTTP

/// The stable error codes of the terminal lifecycle (docs/terminal-lifecycle.md, "Error codes").
extension HTTPError {
    static let unauthorized = HTTPError(
        status: 401, code: "unauthorized", message: "Missing or wrong credentials.", field: "header.Authorization")
    /// A device credential (in the body, not a header) that names no device or has the wrong secret.
    static let wrongDeviceCredential = HTTPError(
        status: 401, code: "unauthorized", message: "Unknown device or wrong device secret.", field: "deviceSecret")
    static let sessionExpired = HTTPError(
        status: 401, code: "session_expired", message: "The session has ended; log in again with the secure code.")
    static let terminalUnregistered = HTTPError(
        status: 401, code: "terminal_unregistered", message: "This device is not registered; register it again.")
    static let certificatesExpired = HTTPError(
        status: 401, code: "certificates_expired",
        message: "The device did not log in for more than three months: its certificates expired and it was unregistered.")

    static let challengeNotFound = HTTPError(
        status: 404, code: "challenge_not_found", message: "No such challenge code on this host.", field: "challengeCode")
    static let challengeExpired = HTTPError(
        status: 410, code: "challenge_expired", message: "The challenge code expired; begin the registration again.",
        field: "challengeCode")
    static let challengeUsed = HTTPError(
        status: 409, code: "challenge_used", message: "The challenge code was already confirmed.", field: "challengeCode")

    static let backOfficeCodeInvalid = HTTPError(
        status: 404, code: "backoffice_code_invalid", message: "No such back-office code on this host.", field: "backofficeCode")
    static let backOfficeCodeExpired = HTTPError(
        status: 410, code: "backoffice_code_expired", message: "The back-office code expired; confirm the challenge again.",
        field: "backofficeCode")
    static let backOfficeCodeUsed = HTTPError(
        status: 409, code: "backoffice_code_used", message: "The back-office code was already used.", field: "backofficeCode")
    static let backOfficeCodeWrongEnvironment = HTTPError(
        status: 400, code: "backoffice_code_wrong_environment",
        message: "The back-office code was issued by another environment.", field: "backofficeCode")
    static let backOfficeCodeWrongDevice = HTTPError(
        status: 403, code: "backoffice_code_wrong_device",
        message: "The back-office code belongs to another device's challenge.", field: "backofficeCode")

    static let tokenInvalid = HTTPError(
        status: 404, code: "registration_token_invalid", message: "No such registration token on this host.",
        field: "registrationToken")
    static let tokenExpired = HTTPError(
        status: 410, code: "registration_token_expired", message: "The registration token expired; ask for a new one.",
        field: "registrationToken")
    static let tokenUsed = HTTPError(
        status: 409, code: "registration_token_used", message: "The registration token was already used.",
        field: "registrationToken")
    static let tokenWrongEnvironment = HTTPError(
        status: 400, code: "registration_token_wrong_environment",
        message: "The registration token was issued by another environment.", field: "registrationToken")
    static func outOfOrder(_ expected: String) -> HTTPError {
        HTTPError(
            status: 409, code: "registration_out_of_order", message: "Token registration runs verify, begin, end: \(expected).",
            field: "registrationToken")
    }
    static let registrationWrongDevice = HTTPError(
        status: 403, code: "registration_wrong_device", message: "Another device began this registration.",
        field: "deviceId")

    static let terminalInUse = HTTPError(
        status: 409, code: "terminal_in_use", message: "The terminal already has a registered device.", field: "terminalId")
    static let noFreeTerminal = HTTPError(
        status: 409, code: "no_free_terminal", message: "The merchant has no terminal without a device.", field: "merchantId")
    static let terminalNotFound = HTTPError(
        status: 404, code: "terminal_not_found", message: "No such terminal.", field: "terminalId")
    static let merchantNotFound = HTTPError(
        status: 404, code: "merchant_not_found", message: "No such merchant.", field: "merchantId")
    static let terminalNotRegistered = HTTPError(
        status: 409, code: "terminal_not_registered", message: "The terminal has no registered device.")
    static func registrationMethodNotAllowed(_ method: String) -> HTTPError {
        HTTPError(
            status: 409, code: "registration_method_not_allowed",
            message: "The terminal does not allow registration by \(method).", field: "terminalId")
    }
    static let deviceAlreadyRegistered = HTTPError(
        status: 409, code: "device_already_registered", message: "This device is registered already; unregister it first.",
        field: "deviceId")

    static let pinRequired = HTTPError(
        status: 400, code: "pin_required", message: "This terminal has no auto-login: the secure code is required.", field: "pin")
    static func invalidPin(remaining: Int) -> HTTPError {
        HTTPError(
            status: 401, code: "invalid_pin",
            message: "Wrong secure code; \(remaining) attempt\(remaining == 1 ? "" : "s") left before the device is locked.",
            field: "pin")
    }
    static let secureCodeLocked = HTTPError(
        status: 423, code: "secure_code_locked", message: "Too many wrong secure codes; the back office must unlock the device.")

    static func invalidRequest(_ message: String, field: String) -> HTTPError {
        HTTPError(status: 400, code: "invalid_request", message: message, field: field)
    }
}
