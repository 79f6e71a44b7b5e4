import Foundation
import SandboxWire

/// Every failure of the SDK, by category (seed `TapOnMobileError`).
///
/// Each category holds a struct whose ``SessionError/kind`` says which case it is, and which
/// keeps the host's error code and message. Match a case as the seed does:
///
/// ```swift
/// switch await TapOnMobile.shared.getTerminalInfo() {
/// case .success(let info): show(info)
/// case .failure(.session(.sessionExpired)): askForSecureCode()
/// case .failure(let error): print(error.category, error.code, error.message)
/// }
/// ```
///
/// `tapsim` exits with ``exitCode``, one per category.
public enum TapOnMobileError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// Not initialized, or no usable environment.
    case initialization(InitializationError)
    /// The card reader: unsupported device, not prepared, busy, …
    case cardReaderSession(CardReaderSessionError)
    /// A registration step: bad code, wrong environment, terminal in use, …
    case registration(RegistrationError)
    /// Login and session: not logged in, expired, unregistered, wrong PIN, locked.
    case session(SessionError)
    /// A transaction refused, or ended without money moving.
    case transaction(TransactionError)
    /// Location permission or fix.
    case location(LocationError)
    /// The host could not be reached or understood.
    case network(NetworkError)
    /// A request the host refused as malformed.
    case validation(ValidationError)

    /// The categories, named as the cases are.
    public enum Category: String, CaseIterable, Sendable {
        case initialization, cardReaderSession, registration, session, transaction, location, network, validation

        /// `tapsim`'s exit code for an error of this category (2 is its usage error).
        public var exitCode: Int32 {
            switch self {
            case .initialization: 10
            case .cardReaderSession: 11
            case .registration: 12
            case .session: 13
            case .transaction: 14
            case .location: 15
            case .network: 16
            case .validation: 17
            }
        }
    }

    /// The category of this error.
    public var category: Category {
        switch self {
        case .initialization: .initialization
        case .cardReaderSession: .cardReaderSession
        case .registration: .registration
        case .session: .session
        case .transaction: .transaction
        case .location: .location
        case .network: .network
        case .validation: .validation
        }
    }

    /// `tapsim`'s exit code: 10 initialization, 11 card reader, 12 registration, 13 session,
    /// 14 transaction, 15 location, 16 network, 17 validation.
    public var exitCode: Int32 { category.exitCode }

    /// The case's name within its category (`sessionExpired`).
    public var kind: String {
        switch self {
        case .initialization(let e): e.kind.rawValue
        case .cardReaderSession(let e): e.kind.rawValue
        case .registration(let e): e.kind.rawValue
        case .session(let e): e.kind.rawValue
        case .transaction(let e): e.kind.rawValue
        case .location(let e): e.kind.rawValue
        case .network(let e): e.kind.rawValue
        case .validation(let e): e.kind.rawValue
        }
    }

    /// The host's machine code, or the SDK's own for errors it made itself.
    public var code: String { parts.code }
    /// What went wrong, for people.
    public var message: String { parts.message }
    /// The HTTP status of the host's answer, when the error came from one.
    public var status: Int? { parts.status }
    /// The request field the host named, if any.
    public var field: String? { parts.field }

    private var parts: (code: String, message: String, status: Int?, field: String?) {
        switch self {
        case .initialization(let e): (e.code, e.message, e.status, e.field)
        case .cardReaderSession(let e): (e.code, e.message, e.status, e.field)
        case .registration(let e): (e.code, e.message, e.status, e.field)
        case .session(let e): (e.code, e.message, e.status, e.field)
        case .transaction(let e): (e.code, e.message, e.status, e.field)
        case .location(let e): (e.code, e.message, e.status, e.field)
        case .network(let e): (e.code, e.message, e.status, e.field)
        case .validation(let e): (e.code, e.message, e.status, e.field)
        }
    }

    public var description: String {
        "\(category.rawValue).\(kind) [\(code)\(status.map { " \($0)" } ?? "")]: \(message)"
    }

    public var errorDescription: String? { message }
}

extension NetworkError {
    /// The host answered an error the SDK does not know, with this status and code.
    public static func http(status: Int, code: String, message: String? = nil) -> NetworkError {
        NetworkError(.http, code: code, message: message ?? "The host answered \(status) \(code).", status: status)
    }
}

extension TransactionDetail {
    /// How a transaction that ended without money moving failed, as a ``TransactionError``
    /// carrying its response code and message; `nil` when it cleared (or was refunded, reversed,
    /// or waits for the DCC choice).
    ///
    /// ```swift
    /// if case .completed(let detail) = event, let failure = detail.outcomeError {
    ///     print(failure)   // transaction.declined [51 …]: Insufficient funds
    /// }
    /// ```
    public var outcomeError: TapOnMobileError? {
        let kind: TransactionError.Kind
        switch transactionStatus {
        case .CLEARED, .AUTHORIZED, .REFUNDED, .CANCELLED, .DCC_REQUIRED: return nil
        case .DECLINED: kind = .declined
        case .TERMINAL_DECLINED: kind = .terminalDeclined
        case .TIMEOUT: kind = .timedOut
        case .USER_CANCELLED: kind = .userCancelled
        case .REJECTED: kind = .rejected
        case .ERROR: kind = .failed
        case .NEW, .ONGOING, .PIN_REQUESTED: kind = .incomplete
        }
        return .transaction(
            TransactionError(
                kind, code: responseCode ?? transactionStatus.rawValue,
                message: responseMsg ?? "The transaction ended \(transactionStatus.rawValue).", field: nil))
    }
}
