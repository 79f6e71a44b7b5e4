import Foundation
import MoneiTapToPay
import SandboxWire
import TapOnMobileSandbox

/// Why a command did not answer: an SDK error (most of them), or something tapsim itself met.
///
/// The exit code is the SDK error category's (`TapOnMobileError.exitCode`: 10 initialization …
/// 17 validation); errors of the back office that `register quick` and `register token` talk to
/// are mapped into the same categories, and so are MONEI's `TapToPayError`s (``init(monei:context:)``).
struct Failure: Error {
    /// The `error` object of the JSON answer.
    let json: JSONValue
    /// `session.sessionExpired [session_expired 401]: The session has expired. (exit 13)`
    let line: String
    let exitCode: Int32
    /// Extra fields for the JSON object (the steps `demo` got through, …).
    var context: [(String, JSONValue)] = []

    init(_ error: TapOnMobileError, context: [(String, JSONValue)] = []) {
        let error = Self.inTapsimWords(error)
        json = [
            "category": .string(error.category.rawValue), "kind": .string(error.kind), "code": .string(error.code),
            "status": JSONValue(error.status), "field": JSONValue(error.field), "message": .string(error.message),
            "exitCode": .int(Int(error.exitCode)),
        ]
        line = "\(error) (exit \(error.exitCode))"
        exitCode = error.exitCode
        self.context = context
    }

    init(json: JSONValue, line: String, exitCode: Int32, context: [(String, JSONValue)] = []) {
        self.json = json
        self.line = line
        self.exitCode = exitCode
        self.context = context
    }

    /// The SDK's own messages name SDK calls (`call doLogin(pin:) first`); on the command line
    /// they name the tapsim command to run instead. Kind, code, status and field stay.
    static func inTapsimWords(_ error: TapOnMobileError) -> TapOnMobileError {
        switch error {
        case .session(let session):
            let message: String? =
                switch session.kind {
                case .sessionError where session.status == nil: "Not logged in: run 'tapsim login --pin PIN' first."
                case .sessionError: "The host no longer knows this session: run 'tapsim login --pin PIN' again."
                case .sessionExpired: "The session has ended: run 'tapsim login --pin PIN' again."
                case .sessionExpiring: "The session ends in less than a minute: run 'tapsim login --pin PIN' again first."
                case .terminalUnregistered:
                    "This device is not registered: run 'tapsim register quick --pin PIN' (or register begin/end, register token) first."
                case .pinRequired: "This terminal has no auto-login: run 'tapsim login --pin PIN' with the secure code."
                default: nil
                }
            guard let message else { return error }
            return .session(SessionError(session.kind, code: session.code, message: message, status: session.status, field: session.field))
        case .registration(let registration):
            let message: String? =
                switch registration.kind {
                case .alreadyRegistered: "This device is registered already: run 'tapsim unregister' first."
                case .pinRequired where registration.status != nil:
                    "This terminal has no auto-login: give the secure code to register with (--pin PIN)."
                default: nil
                }
            guard let message else { return error }
            return .registration(
                RegistrationError(
                    registration.kind, code: registration.code, message: message, status: registration.status, field: registration.field))
        case .cardReaderSession(let reader) where reader.kind == .notPrepared:
            return .cardReaderSession(
                CardReaderSessionError(
                    reader.kind, code: reader.code, message: "The reader is not prepared: run 'tapsim prepare' first.",
                    status: reader.status, field: reader.field))
        default:
            return error
        }
    }

    /// Any error a command threw.
    init(any error: any Error) {
        switch error {
        case let failure as Failure: self = failure
        case let sdk as TapOnMobileError: self.init(sdk, context: [])
        case let backOffice as BackOffice.Failure: self.init(backOffice.sdkError, context: [])
        case let monei as TapToPayError: self.init(monei: monei)
        default:
            self.init(.network(NetworkError(.invalidResponse, code: "tapsim_failure", message: "\(error)")), context: [])
        }
    }

}

extension BackOffice.Failure {
    /// The back office's answer as the SDK would categorise the same code from the terminal API.
    var sdkError: TapOnMobileError {
        let message = "back office: " + self.message
        guard let status else {
            return .network(NetworkError(.unreachable, code: code, message: message))
        }
        func registration(_ kind: RegistrationError.Kind) -> TapOnMobileError {
            .registration(RegistrationError(kind, code: code, message: message, status: status))
        }
        switch ErrorCode(rawValue: code) {
        case .challengeNotFound: return registration(.invalidCode)
        case .challengeExpired: return registration(.codeExpired)
        case .challengeUsed: return registration(.codeUsed)
        case .terminalInUse: return registration(.terminalInUse)
        case .noFreeTerminal: return registration(.noFreeTerminal)
        case .registrationMethodNotAllowed: return registration(.methodNotAllowed)
        case .terminalNotFound, .merchantNotFound, .terminalNotRegistered: return registration(.terminalNotFound)
        case .invalidRequest: return .validation(ValidationError(.invalidRequest, code: code, message: message, status: status))
        case .invalidJson: return .validation(ValidationError(.invalidJSON, code: code, message: message, status: status))
        default: return .network(NetworkError(.http, code: code, message: message, status: status))
        }
    }
}

/// `result.get()` with tapsim's error type.
extension Result where Failure == TapOnMobileError {
    func value() throws(TapOnMobileError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }
}
