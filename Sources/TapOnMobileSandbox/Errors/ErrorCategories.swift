// The categories of TapOnMobileError, one struct each, all of one shape: a public `Kind` enum
// of cases, and what the host said (code, message, HTTP status, field). Equality compares the
// kind only, so `error == .session(.sessionExpired)` and `case .session(.sessionExpired):` match
// whatever message the host sent.

import Foundation

/// Why the SDK is not ready: not initialized, or no usable environment.
///
/// A case of ``TapOnMobileError/initialization(_:)``. Match it by kind (`.notInitialized`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public struct InitializationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The cases of this category.
    public enum Kind: String, CaseIterable, Sendable {
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

    public static let notInitialized = InitializationError(.notInitialized)
    public static let unknownEnvironment = InitializationError(.unknownEnvironment)
    public static let wrongEnvironment = InitializationError(.wrongEnvironment)
    public static let storageUnavailable = InitializationError(.storageUnavailable)

    public static func == (lhs: InitializationError, rhs: InitializationError) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    public var description: String {
        "initialization.\(kind.rawValue) [\(code)\(status.map { " \($0)" } ?? "")]: \(message)"
    }
}

/// Why the card reader could not do what was asked.
///
/// A case of ``TapOnMobileError/cardReaderSession(_:)``. Match it by kind (`.unsupported`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public struct CardReaderSessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The cases of this category.
    public enum Kind: String, CaseIterable, Sendable {
        case unsupported
        case notPrepared
        case busy
        case appInBackground
        case tokenCancelled
        case accountLinkingCancelled
        case readerNotice
        case payloadRejected
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
            case .payloadRejected: "card_payload_invalid"
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
            case .readerFailure: "The reader failed."
            }
        }
    }

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

    public static let unsupported = CardReaderSessionError(.unsupported)
    public static let notPrepared = CardReaderSessionError(.notPrepared)
    public static let busy = CardReaderSessionError(.busy)
    public static let appInBackground = CardReaderSessionError(.appInBackground)
    public static let tokenCancelled = CardReaderSessionError(.tokenCancelled)
    public static let accountLinkingCancelled = CardReaderSessionError(.accountLinkingCancelled)
    public static let readerNotice = CardReaderSessionError(.readerNotice)
    public static let payloadRejected = CardReaderSessionError(.payloadRejected)
    public static let readerFailure = CardReaderSessionError(.readerFailure)

    public static func == (lhs: CardReaderSessionError, rhs: CardReaderSessionError) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    public var description: String {
        "cardReaderSession.\(kind.rawValue) [\(code)\(status.map { " \($0)" } ?? "")]: \(message)"
    }
}

/// Why a registration step was refused.
///
/// A case of ``TapOnMobileError/registration(_:)``. Match it by kind (`.invalidCode`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public struct RegistrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The cases of this category.
    public enum Kind: String, CaseIterable, Sendable {
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

        /// The code an SDK-made error of this kind carries.
        public var defaultCode: String {
            switch self {
            case .invalidCode: "backoffice_code_invalid"
            case .codeExpired: "backoffice_code_expired"
            case .codeUsed: "backoffice_code_used"
            case .wrongEnvironment: "backoffice_code_wrong_environment"
            case .wrongDevice: "registration_wrong_device"
            case .outOfOrder: "registration_out_of_order"
            case .terminalInUse: "terminal_in_use"
            case .noFreeTerminal: "no_free_terminal"
            case .methodNotAllowed: "registration_method_not_allowed"
            case .alreadyRegistered: "device_already_registered"
            case .terminalNotFound: "terminal_not_found"
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
            }
        }
    }

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

    public static let invalidCode = RegistrationError(.invalidCode)
    public static let codeExpired = RegistrationError(.codeExpired)
    public static let codeUsed = RegistrationError(.codeUsed)
    public static let wrongEnvironment = RegistrationError(.wrongEnvironment)
    public static let wrongDevice = RegistrationError(.wrongDevice)
    public static let outOfOrder = RegistrationError(.outOfOrder)
    public static let terminalInUse = RegistrationError(.terminalInUse)
    public static let noFreeTerminal = RegistrationError(.noFreeTerminal)
    public static let methodNotAllowed = RegistrationError(.methodNotAllowed)
    public static let alreadyRegistered = RegistrationError(.alreadyRegistered)
    public static let terminalNotFound = RegistrationError(.terminalNotFound)

    public static func == (lhs: RegistrationError, rhs: RegistrationError) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    public var description: String {
        "registration.\(kind.rawValue) [\(code)\(status.map { " \($0)" } ?? "")]: \(message)"
    }
}

/// Why the device has no usable session.
///
/// A case of ``TapOnMobileError/session(_:)``. Match it by kind (`.sessionError`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public struct SessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The cases of this category.
    public enum Kind: String, CaseIterable, Sendable {
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
            case .sessionExpired: "session_expired"
            case .sessionExpiring: "session_expiring"
            case .terminalUnregistered: "terminal_unregistered"
            case .certificatesExpired: "certificates_expired"
            case .invalidPin: "invalid_pin"
            case .locked: "secure_code_locked"
            case .pinRequired: "pin_required"
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

    public static let sessionError = SessionError(.sessionError)
    public static let sessionExpired = SessionError(.sessionExpired)
    public static let sessionExpiring = SessionError(.sessionExpiring)
    public static let terminalUnregistered = SessionError(.terminalUnregistered)
    public static let certificatesExpired = SessionError(.certificatesExpired)
    public static let invalidPin = SessionError(.invalidPin)
    public static let locked = SessionError(.locked)
    public static let pinRequired = SessionError(.pinRequired)

    public static func == (lhs: SessionError, rhs: SessionError) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    public var description: String {
        "session.\(kind.rawValue) [\(code)\(status.map { " \($0)" } ?? "")]: \(message)"
    }
}

/// Why a transaction was refused, or how it ended without money moving.
///
/// A case of ``TapOnMobileError/transaction(_:)``. Match it by kind (`.busy`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public struct TransactionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The cases of this category.
    public enum Kind: String, CaseIterable, Sendable {
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
            case .busy: "terminal_busy"
            case .notFound: "transaction_not_found"
            case .notAllowed: "not_allowed"
            case .invalidAmount: "invalid_amount"
            case .invalidCurrency: "invalid_currency"
            case .invalidTip: "tip_over_limit"
            case .invalidReference: "invalid_reference"
            case .notCancellable: "transaction_not_cancellable"
            case .stillCancellable: "transaction_still_cancellable"
            case .alreadyRefunded: "already_refunded"
            case .notRefundable: "transaction_not_refundable"
            case .wrongState: "transaction_wrong_state"
            case .checkoutRejected: "checkout_mismatch"
            case .idempotencyKeyReused: "idempotency_key_reused"
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

    public static let busy = TransactionError(.busy)
    public static let notFound = TransactionError(.notFound)
    public static let notAllowed = TransactionError(.notAllowed)
    public static let invalidAmount = TransactionError(.invalidAmount)
    public static let invalidCurrency = TransactionError(.invalidCurrency)
    public static let invalidTip = TransactionError(.invalidTip)
    public static let invalidReference = TransactionError(.invalidReference)
    public static let notCancellable = TransactionError(.notCancellable)
    public static let stillCancellable = TransactionError(.stillCancellable)
    public static let alreadyRefunded = TransactionError(.alreadyRefunded)
    public static let notRefundable = TransactionError(.notRefundable)
    public static let wrongState = TransactionError(.wrongState)
    public static let checkoutRejected = TransactionError(.checkoutRejected)
    public static let idempotencyKeyReused = TransactionError(.idempotencyKeyReused)
    public static let declined = TransactionError(.declined)
    public static let terminalDeclined = TransactionError(.terminalDeclined)
    public static let timedOut = TransactionError(.timedOut)
    public static let userCancelled = TransactionError(.userCancelled)
    public static let rejected = TransactionError(.rejected)
    public static let failed = TransactionError(.failed)
    public static let incomplete = TransactionError(.incomplete)

    public static func == (lhs: TransactionError, rhs: TransactionError) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    public var description: String {
        "transaction.\(kind.rawValue) [\(code)\(status.map { " \($0)" } ?? "")]: \(message)"
    }
}

/// Why the device's location is not available.
///
/// A case of ``TapOnMobileError/location(_:)``. Match it by kind (`.denied`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public struct LocationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The cases of this category.
    public enum Kind: String, CaseIterable, Sendable {
        case denied
        case timeout
        case countryNotPermitted

        /// The code an SDK-made error of this kind carries.
        public var defaultCode: String {
            switch self {
            case .denied: "location_denied"
            case .timeout: "location_timeout"
            case .countryNotPermitted: "country_not_permitted"
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

    public static let denied = LocationError(.denied)
    public static let timeout = LocationError(.timeout)
    public static let countryNotPermitted = LocationError(.countryNotPermitted)

    public static func == (lhs: LocationError, rhs: LocationError) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    public var description: String {
        "location.\(kind.rawValue) [\(code)\(status.map { " \($0)" } ?? "")]: \(message)"
    }
}

/// Why the host could not be reached or understood.
///
/// A case of ``TapOnMobileError/network(_:)``. Match it by kind (`.unreachable`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public struct NetworkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The cases of this category.
    public enum Kind: String, CaseIterable, Sendable {
        case unreachable
        case timeout
        case invalidResponse
        case http

        /// The code an SDK-made error of this kind carries.
        public var defaultCode: String {
            switch self {
            case .unreachable: "unreachable"
            case .timeout: "timeout"
            case .invalidResponse: "invalid_response"
            case .http: "http_error"
            }
        }

        /// The message an SDK-made error of this kind carries.
        public var defaultMessage: String {
            switch self {
            case .unreachable: "The sandbox host cannot be reached."
            case .timeout: "The sandbox host did not answer in time."
            case .invalidResponse: "The host's answer could not be read."
            case .http: "The host answered with an unexpected error."
            }
        }
    }

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

    public static let unreachable = NetworkError(.unreachable)
    public static let timeout = NetworkError(.timeout)
    public static let invalidResponse = NetworkError(.invalidResponse)
    public static let http = NetworkError(.http)

    public static func == (lhs: NetworkError, rhs: NetworkError) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    public var description: String {
        "network.\(kind.rawValue) [\(code)\(status.map { " \($0)" } ?? "")]: \(message)"
    }
}

/// A request the host refused as malformed (its 400s).
///
/// A case of ``TapOnMobileError/validation(_:)``. Match it by kind (`.invalidRequest`); ``code``,
/// ``message``, ``status`` and ``field`` carry what the host said, for logs and people.
public struct ValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The cases of this category.
    public enum Kind: String, CaseIterable, Sendable {
        case invalidRequest
        case invalidJSON
        case unsupportedRequest

        /// The code an SDK-made error of this kind carries.
        public var defaultCode: String {
            switch self {
            case .invalidRequest: "invalid_request"
            case .invalidJSON: "invalid_json"
            case .unsupportedRequest: "unsupported_media_type"
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

    public static let invalidRequest = ValidationError(.invalidRequest)
    public static let invalidJSON = ValidationError(.invalidJSON)
    public static let unsupportedRequest = ValidationError(.unsupportedRequest)

    public static func == (lhs: ValidationError, rhs: ValidationError) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    public var description: String {
        "validation.\(kind.rawValue) [\(code)\(status.map { " \($0)" } ?? "")]: \(message)"
    }
}
