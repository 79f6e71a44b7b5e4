// The categories of TapOnMobileError: one ``CategoryError`` each, over its own enum of cases
// (`SessionError.Kind`, …), carrying what the host said (code, message, HTTP status, field).
// Equality compares the kind only, so `error == .session(.sessionExpired)` and
// `case .session(.sessionExpired):` match whatever message the host sent.

import Foundation
import SandboxWire

/// The cases of one error category, with the code and message an SDK-made error of each carries.
public protocol ErrorKind: RawRepresentable<String>, CaseIterable, Hashable, Sendable {
    /// The category's name in descriptions (`session` in `session.sessionExpired [...]`).
    static var category: String { get }
    /// The code an SDK-made error of this kind carries.
    var defaultCode: String { get }
    /// The message an SDK-made error of this kind carries.
    var defaultMessage: String { get }
}

/// An error of one category: which case (``kind``), and what the host said about it.
///
/// Match it by kind (`.sessionExpired`); ``code``, ``message``, ``status`` and ``field`` carry
/// what the host said, for logs and people.
public struct CategoryError<Cases: ErrorKind>: Error, Hashable, Sendable, CustomStringConvertible {
    /// The cases of this category (`SessionError.Kind.sessionExpired`).
    public typealias Kind = Cases

    /// Which case.
    public let kind: Kind
    /// The host's machine code (`session_expired` …), or the SDK's for errors it made itself.
    public let code: String
    /// What went wrong, for people.
    public let message: String
    /// The HTTP status of the host's answer; `nil` for errors the SDK made itself.
    public let status: Int?
    /// The request field the host named, if any.
    public let field: String?

    /// An error of `kind`; code and message default to the kind's.
    public init(_ kind: Kind, code: String? = nil, message: String? = nil, status: Int? = nil, field: String? = nil) {
        self.kind = kind
        self.code = code ?? kind.defaultCode
        self.message = message ?? kind.defaultMessage
        self.status = status
        self.field = field
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    public var description: String {
        "\(Kind.category).\(kind.rawValue) [\(code)\(status.map { " \($0)" } ?? "")]: \(message)"
    }
}

/// Why the SDK is not ready: not initialized, or no usable environment.
///
/// A case of ``TapOnMobileError/initialization(_:)``. Match it by kind (`.notInitialized`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public typealias InitializationError = CategoryError<InitializationErrorKind>

/// The cases of ``InitializationError``.
public enum InitializationErrorKind: String, ErrorKind {
    public static let category = "initialization"

    case notInitialized
    case unknownEnvironment
    case wrongEnvironment
    case storageUnavailable

    /// The code an SDK-made error of this kind carries.
    public var defaultCode: String {
        switch self {
        case .notInitialized: "not_initialized"
        case .unknownEnvironment: "unknown_environment"
        case .wrongEnvironment: "wrong_environment"
        case .storageUnavailable: "storage_unavailable"
        }
    }

    /// The message an SDK-made error of this kind carries.
    public var defaultMessage: String {
        switch self {
        case .notInitialized: "Call initialization(environment:appVersion:language:) first."
        case .unknownEnvironment: "No sandbox endpoint is known for this environment's region."
        case .wrongEnvironment: "The endpoint answers as another region than the environment's."
        case .storageUnavailable: "The device directory cannot be read or written."
        }
    }
}

extension InitializationError {
    public static var notInitialized: Self { Self(.notInitialized) }
    public static var unknownEnvironment: Self { Self(.unknownEnvironment) }
    public static var wrongEnvironment: Self { Self(.wrongEnvironment) }
    public static var storageUnavailable: Self { Self(.storageUnavailable) }
}

/// Why the card reader could not do what was asked, or why the host refused the card it read.
///
/// The host refuses a card that opened but breaks a rule of a card read with a kind of its own
/// (`invalidPan`, `invalidCardCountry`, `brandMismatch`, `unknownBrand`, `unknownCvm`,
/// `invalidCardData`), and a payload that does not open as `payloadRejected`.
///
/// A case of ``TapOnMobileError/cardReaderSession(_:)``. Match it by kind (`.unsupported`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public typealias CardReaderSessionError = CategoryError<CardReaderSessionErrorKind>

/// The cases of ``CardReaderSessionError``.
public enum CardReaderSessionErrorKind: String, ErrorKind {
    public static let category = "cardReaderSession"

    case unsupported
    case notPrepared
    case busy
    case appInBackground
    case tokenCancelled
    case accountLinkingCancelled
    case readerNotice
    case payloadRejected
    case invalidPan
    case invalidCardCountry
    case brandMismatch
    case unknownBrand
    case unknownCvm
    case invalidCardData
    case unreadableCard
    case readerFailure

    /// The code an SDK-made error of this kind carries.
    public var defaultCode: String {
        switch self {
        case .unsupported: "unsupported"
        case .notPrepared: "not_prepared"
        case .busy: "reader_busy"
        case .appInBackground: "app_in_background"
        case .tokenCancelled: "token_cancelled"
        case .accountLinkingCancelled: "account_linking_cancelled"
        case .readerNotice: "reader_notice"
        case .payloadRejected: ErrorCode.cardPayloadInvalid.rawValue
        case .invalidPan: ErrorCode.invalidPan.rawValue
        case .invalidCardCountry: ErrorCode.invalidCardCountry.rawValue
        case .brandMismatch: ErrorCode.brandMismatch.rawValue
        case .unknownBrand: ErrorCode.unknownBrand.rawValue
        case .unknownCvm: ErrorCode.unknownCvm.rawValue
        case .invalidCardData: ErrorCode.invalidCardData.rawValue
        case .unreadableCard: "card_unreadable"
        case .readerFailure: "reader_failure"
        }
    }

    /// The message an SDK-made error of this kind carries.
    public var defaultMessage: String {
        switch self {
        case .unsupported: "Tap to Pay on iPhone is not supported on this device."
        case .notPrepared: "The reader is not prepared: call prepareDevice() after login and whenever the app returns from the background."
        case .busy: "The reader is busy with another operation."
        case .appInBackground: "The app is in the background."
        case .tokenCancelled: "No reader token was provided."
        case .accountLinkingCancelled: "The merchant did not accept the Tap to Pay on iPhone terms."
        case .readerNotice: "A reader notice stopped the operation."
        case .payloadRejected: "The host refused the card read."
        case .invalidPan: "The card's PAN is not a valid card number."
        case .invalidCardCountry: "The card's country is not an ISO 3166-1 country code."
        case .brandMismatch: "The card's brand does not match its PAN or AID."
        case .unknownBrand: "The card's brand is not one the host knows."
        case .unknownCvm: "The card's cardholder verification method is not one the host knows."
        case .invalidCardData: "The card's data is out of its rules."
        case .unreadableCard: "The reader could not read the card."
        case .readerFailure: "The reader failed."
        }
    }
}

extension CardReaderSessionError {
    public static var unsupported: Self { Self(.unsupported) }
    public static var notPrepared: Self { Self(.notPrepared) }
    public static var busy: Self { Self(.busy) }
    public static var appInBackground: Self { Self(.appInBackground) }
    public static var tokenCancelled: Self { Self(.tokenCancelled) }
    public static var accountLinkingCancelled: Self { Self(.accountLinkingCancelled) }
    public static var readerNotice: Self { Self(.readerNotice) }
    public static var payloadRejected: Self { Self(.payloadRejected) }
    public static var invalidPan: Self { Self(.invalidPan) }
    public static var invalidCardCountry: Self { Self(.invalidCardCountry) }
    public static var brandMismatch: Self { Self(.brandMismatch) }
    public static var unknownBrand: Self { Self(.unknownBrand) }
    public static var unknownCvm: Self { Self(.unknownCvm) }
    public static var invalidCardData: Self { Self(.invalidCardData) }
    public static var unreadableCard: Self { Self(.unreadableCard) }
    public static var readerFailure: Self { Self(.readerFailure) }
}

/// Why a registration step was refused.
///
/// A case of ``TapOnMobileError/registration(_:)``. Match it by kind (`.invalidCode`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public typealias RegistrationError = CategoryError<RegistrationErrorKind>

/// The cases of ``RegistrationError``.
public enum RegistrationErrorKind: String, ErrorKind {
    public static let category = "registration"

    case invalidCode
    case codeExpired
    case codeUsed
    case wrongEnvironment
    case wrongDevice
    case outOfOrder
    case terminalInUse
    case noFreeTerminal
    case methodNotAllowed
    case alreadyRegistered
    case terminalNotFound
    /// The registration's terminal has no auto-login and no secure code was given.
    case pinRequired

    /// The code an SDK-made error of this kind carries.
    public var defaultCode: String {
        switch self {
        case .invalidCode: ErrorCode.backofficeCodeInvalid.rawValue
        case .codeExpired: ErrorCode.backofficeCodeExpired.rawValue
        case .codeUsed: ErrorCode.backofficeCodeUsed.rawValue
        case .wrongEnvironment: ErrorCode.backofficeCodeWrongEnvironment.rawValue
        case .wrongDevice: ErrorCode.registrationWrongDevice.rawValue
        case .outOfOrder: ErrorCode.registrationOutOfOrder.rawValue
        case .terminalInUse: ErrorCode.terminalInUse.rawValue
        case .noFreeTerminal: ErrorCode.noFreeTerminal.rawValue
        case .methodNotAllowed: ErrorCode.registrationMethodNotAllowed.rawValue
        case .alreadyRegistered: ErrorCode.deviceAlreadyRegistered.rawValue
        case .terminalNotFound: ErrorCode.terminalNotFound.rawValue
        case .pinRequired: ErrorCode.pinRequired.rawValue
        }
    }

    /// The message an SDK-made error of this kind carries.
    public var defaultMessage: String {
        switch self {
        case .invalidCode: "No such code or token on this host."
        case .codeExpired: "The code or token expired."
        case .codeUsed: "The code or token was already used."
        case .wrongEnvironment: "The code or token belongs to another environment."
        case .wrongDevice: "Another device began this registration."
        case .outOfOrder: "Token registration runs verify, begin, end, in that order."
        case .terminalInUse: "The terminal already has a registered device."
        case .noFreeTerminal: "The merchant has no terminal without a device."
        case .methodNotAllowed: "The terminal does not allow this registration method."
        case .alreadyRegistered: "This device is registered already; unregister it first."
        case .terminalNotFound: "No such terminal or merchant."
        case .pinRequired: "This terminal has no auto-login: the secure code to register with is required."
        }
    }
}

extension RegistrationError {
    public static var invalidCode: Self { Self(.invalidCode) }
    public static var codeExpired: Self { Self(.codeExpired) }
    public static var codeUsed: Self { Self(.codeUsed) }
    public static var wrongEnvironment: Self { Self(.wrongEnvironment) }
    public static var wrongDevice: Self { Self(.wrongDevice) }
    public static var outOfOrder: Self { Self(.outOfOrder) }
    public static var terminalInUse: Self { Self(.terminalInUse) }
    public static var noFreeTerminal: Self { Self(.noFreeTerminal) }
    public static var methodNotAllowed: Self { Self(.methodNotAllowed) }
    public static var alreadyRegistered: Self { Self(.alreadyRegistered) }
    public static var terminalNotFound: Self { Self(.terminalNotFound) }
    public static var pinRequired: Self { Self(.pinRequired) }
}

/// Why the device has no usable session.
///
/// A case of ``TapOnMobileError/session(_:)``. Match it by kind (`.sessionError`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public typealias SessionError = CategoryError<SessionErrorKind>

/// The cases of ``SessionError``.
public enum SessionErrorKind: String, ErrorKind {
    public static let category = "session"

    case sessionError
    case sessionExpired
    case sessionExpiring
    case terminalUnregistered
    case certificatesExpired
    case invalidPin
    case locked
    case pinRequired

    /// The code an SDK-made error of this kind carries.
    public var defaultCode: String {
        switch self {
        case .sessionError: "not_logged_in"
        case .sessionExpired: ErrorCode.sessionExpired.rawValue
        case .sessionExpiring: ErrorCode.sessionExpiring.rawValue
        case .terminalUnregistered: ErrorCode.terminalUnregistered.rawValue
        case .certificatesExpired: ErrorCode.certificatesExpired.rawValue
        case .invalidPin: ErrorCode.invalidPin.rawValue
        case .locked: ErrorCode.secureCodeLocked.rawValue
        case .pinRequired: ErrorCode.pinRequired.rawValue
        }
    }

    /// The message an SDK-made error of this kind carries.
    public var defaultMessage: String {
        switch self {
        case .sessionError: "Not logged in: call doLogin(pin:) first."
        case .sessionExpired: "The session has ended; log in again with the secure code."
        case .sessionExpiring: "The session ends in less than a minute: log in again first."
        case .terminalUnregistered: "This device is not registered; register it first."
        case .certificatesExpired: "The device did not log in for more than three months and was unregistered."
        case .invalidPin: "Wrong secure code."
        case .locked: "Too many wrong secure codes; the back office must unlock the device."
        case .pinRequired: "This terminal has no auto-login: the secure code is required."
        }
    }
}

extension SessionError {
    public static var sessionError: Self { Self(.sessionError) }
    public static var sessionExpired: Self { Self(.sessionExpired) }
    public static var sessionExpiring: Self { Self(.sessionExpiring) }
    public static var terminalUnregistered: Self { Self(.terminalUnregistered) }
    public static var certificatesExpired: Self { Self(.certificatesExpired) }
    public static var invalidPin: Self { Self(.invalidPin) }
    public static var locked: Self { Self(.locked) }
    public static var pinRequired: Self { Self(.pinRequired) }
}

/// Why a transaction was refused, or how it ended without money moving.
///
/// A case of ``TapOnMobileError/transaction(_:)``. Match it by kind (`.busy`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public typealias TransactionError = CategoryError<TransactionErrorKind>

/// The cases of ``TransactionError``.
public enum TransactionErrorKind: String, ErrorKind {
    public static let category = "transaction"

    case busy
    case notFound
    case notAllowed
    case invalidAmount
    case invalidCurrency
    case invalidTip
    case invalidReference
    case notCancellable
    case stillCancellable
    case alreadyRefunded
    case notRefundable
    case wrongState
    case checkoutRejected
    case idempotencyKeyReused
    /// The BLIK code was refused before any payment: not 6 or 9 digits, unknown, expired, used,
    /// or its verification code wrong (``code`` says which).
    case invalidPayCode
    case declined
    case terminalDeclined
    case timedOut
    case userCancelled
    case rejected
    case failed
    case incomplete

    /// The code an SDK-made error of this kind carries.
    public var defaultCode: String {
        switch self {
        case .busy: ErrorCode.terminalBusy.rawValue
        case .notFound: ErrorCode.transactionNotFound.rawValue
        case .notAllowed: "not_allowed"
        case .invalidAmount: ErrorCode.invalidAmount.rawValue
        case .invalidCurrency: ErrorCode.invalidCurrency.rawValue
        case .invalidTip: ErrorCode.tipOverLimit.rawValue
        case .invalidReference: ErrorCode.invalidReference.rawValue
        case .notCancellable: ErrorCode.transactionNotCancellable.rawValue
        case .stillCancellable: ErrorCode.transactionStillCancellable.rawValue
        case .alreadyRefunded: ErrorCode.alreadyRefunded.rawValue
        case .notRefundable: ErrorCode.transactionNotRefundable.rawValue
        case .wrongState: ErrorCode.transactionWrongState.rawValue
        case .checkoutRejected: ErrorCode.checkoutMismatch.rawValue
        case .idempotencyKeyReused: ErrorCode.idempotencyKeyReused.rawValue
        case .invalidPayCode: ErrorCode.blikCodeInvalid.rawValue
        case .declined: "DECLINED"
        case .terminalDeclined: "TERMINAL_DECLINED"
        case .timedOut: "TIMEOUT"
        case .userCancelled: "USER_CANCELLED"
        case .rejected: "REJECTED"
        case .failed: "ERROR"
        case .incomplete: "INCOMPLETE"
        }
    }

    /// The message an SDK-made error of this kind carries.
    public var defaultMessage: String {
        switch self {
        case .busy: "Another transaction is in progress on this terminal."
        case .notFound: "No such transaction on this terminal."
        case .notAllowed: "This terminal does not allow the operation."
        case .invalidAmount: "The amount is not allowed."
        case .invalidCurrency: "The currency is not the terminal's."
        case .invalidTip: "The tip is not allowed."
        case .invalidReference: "The reference is not allowed."
        case .notCancellable: "Only the terminal's latest cleared sale can be reversed, within 30 minutes."
        case .stillCancellable: "The sale can still be reversed: reverse it instead of refunding it."
        case .alreadyRefunded: "The sale was refunded already."
        case .notRefundable: "Only a cleared sale can be refunded."
        case .wrongState: "The transaction is not in the state this step needs."
        case .checkoutRejected: "The checkout does not allow this sale."
        case .idempotencyKeyReused: "The Idempotency-Key was used with another request."
        case .invalidPayCode: "The BLIK code was refused."
        case .declined: "The issuer declined the transaction."
        case .terminalDeclined: "The reader's kernel declined the card."
        case .timedOut: "The transaction timed out."
        case .userCancelled: "The transaction was cancelled on the card screen."
        case .rejected: "The device rejected the transaction."
        case .failed: "The transaction failed with a server error."
        case .incomplete: "The transaction did not reach a final status."
        }
    }
}

extension TransactionError {
    public static var busy: Self { Self(.busy) }
    public static var notFound: Self { Self(.notFound) }
    public static var notAllowed: Self { Self(.notAllowed) }
    public static var invalidPayCode: Self { Self(.invalidPayCode) }
    public static var invalidAmount: Self { Self(.invalidAmount) }
    public static var invalidCurrency: Self { Self(.invalidCurrency) }
    public static var invalidTip: Self { Self(.invalidTip) }
    public static var invalidReference: Self { Self(.invalidReference) }
    public static var notCancellable: Self { Self(.notCancellable) }
    public static var stillCancellable: Self { Self(.stillCancellable) }
    public static var alreadyRefunded: Self { Self(.alreadyRefunded) }
    public static var notRefundable: Self { Self(.notRefundable) }
    public static var wrongState: Self { Self(.wrongState) }
    public static var checkoutRejected: Self { Self(.checkoutRejected) }
    public static var idempotencyKeyReused: Self { Self(.idempotencyKeyReused) }
    public static var declined: Self { Self(.declined) }
    public static var terminalDeclined: Self { Self(.terminalDeclined) }
    public static var timedOut: Self { Self(.timedOut) }
    public static var userCancelled: Self { Self(.userCancelled) }
    public static var rejected: Self { Self(.rejected) }
    public static var failed: Self { Self(.failed) }
    public static var incomplete: Self { Self(.incomplete) }
}

/// Why the device's location is not available.
///
/// A case of ``TapOnMobileError/location(_:)``. Match it by kind (`.denied`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public typealias LocationError = CategoryError<LocationErrorKind>

/// The cases of ``LocationError``.
public enum LocationErrorKind: String, ErrorKind {
    public static let category = "location"

    case denied
    case timeout
    case countryNotPermitted

    /// The code an SDK-made error of this kind carries.
    public var defaultCode: String {
        switch self {
        case .denied: "location_denied"
        case .timeout: "location_timeout"
        case .countryNotPermitted: ErrorCode.countryNotPermitted.rawValue
        }
    }

    /// The message an SDK-made error of this kind carries.
    public var defaultMessage: String {
        switch self {
        case .denied: "Location access is denied: the user must allow it in Settings."
        case .timeout: "No location fix arrived in time."
        case .countryNotPermitted: "The terminal may not be used in this country."
        }
    }
}

extension LocationError {
    public static var denied: Self { Self(.denied) }
    public static var timeout: Self { Self(.timeout) }
    public static var countryNotPermitted: Self { Self(.countryNotPermitted) }
}

/// Why the host could not be reached or understood.
///
/// A case of ``TapOnMobileError/network(_:)``. Match it by kind (`.unreachable`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public typealias NetworkError = CategoryError<NetworkErrorKind>

/// The cases of ``NetworkError``.
public enum NetworkErrorKind: String, ErrorKind {
    public static let category = "network"

    case unreachable
    /// The request went out and the connection broke before the whole answer came: the host may
    /// have done what was asked (a sale stored, the device never told). Look the transaction up
    /// (`getTransactionDetails` by reference, `getLastTransaction`) before trying again.
    case connectionLost
    case timeout
    case invalidResponse
    /// The host refused to check one more code or secret from this device or address for now
    /// (429 `too_many_attempts`): the message says how many seconds to wait; the code itself is
    /// not spent, so the same call succeeds after the wait.
    case tooManyAttempts
    case http

    /// The code an SDK-made error of this kind carries.
    public var defaultCode: String {
        switch self {
        case .unreachable: "unreachable"
        case .connectionLost: "connection_lost"
        case .timeout: "timeout"
        case .invalidResponse: "invalid_response"
        case .tooManyAttempts: "too_many_attempts"
        case .http: "http_error"
        }
    }

    /// The message an SDK-made error of this kind carries.
    public var defaultMessage: String {
        switch self {
        case .unreachable: "The sandbox host cannot be reached."
        case .connectionLost: "The connection broke before the host's answer came: the outcome is unknown."
        case .timeout: "The sandbox host did not answer in time."
        case .invalidResponse: "The host's answer could not be read."
        case .tooManyAttempts: "Too many wrong codes from this device or address; try again later."
        case .http: "The host answered with an unexpected error."
        }
    }
}

extension NetworkError {
    public static var unreachable: Self { Self(.unreachable) }
    public static var connectionLost: Self { Self(.connectionLost) }
    public static var timeout: Self { Self(.timeout) }
    public static var invalidResponse: Self { Self(.invalidResponse) }
    public static var tooManyAttempts: Self { Self(.tooManyAttempts) }
    public static var http: Self { Self(.http) }
}

/// A request the host refused as malformed (its 400s).
///
/// A case of ``TapOnMobileError/validation(_:)``. Match it by kind (`.invalidRequest`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public typealias ValidationError = CategoryError<ValidationErrorKind>

/// The cases of ``ValidationError``.
public enum ValidationErrorKind: String, ErrorKind {
    public static let category = "validation"

    case invalidRequest
    case invalidJSON
    case unsupportedRequest

    /// The code an SDK-made error of this kind carries.
    public var defaultCode: String {
        switch self {
        case .invalidRequest: ErrorCode.invalidRequest.rawValue
        case .invalidJSON: ErrorCode.invalidJson.rawValue
        case .unsupportedRequest: ErrorCode.unsupportedMediaType.rawValue
        }
    }

    /// The message an SDK-made error of this kind carries.
    public var defaultMessage: String {
        switch self {
        case .invalidRequest: "A value is out of its rules."
        case .invalidJSON: "A field is missing or mistyped."
        case .unsupportedRequest: "The host does not accept this request."
        }
    }
}

extension ValidationError {
    public static var invalidRequest: Self { Self(.invalidRequest) }
    public static var invalidJSON: Self { Self(.invalidJSON) }
    public static var unsupportedRequest: Self { Self(.unsupportedRequest) }
}
