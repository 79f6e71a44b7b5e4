import LockedValue
import CardPayload
import DeviceTransport
import Foundation
import SandboxWire
import SimulatedReader
import Synchronization

/// What runs a Tap to Pay reader for the Payments SDK: the simulated reader (Apple's side) and the
/// Geopagos host's session that its token buys. Opaque to apps; `TapToPayReaderInstaller` drives it.
///
/// Each token the app supplies is judged by the host: the device trades it for a session of the
/// terminal API (`POST /terminal/v1/reader-sessions`); `reader_token_expired` is Apple's
/// `.rejected(.expired)`, `reader_token_invalid` its `.rejected(.invalid(_))`.
public final class ReaderEngine: Sendable {
    /// One prepared connection: the host's session and the key card reads are sealed with.
    struct Connection: Sendable {
        var session: ReaderSession
        var readerToken: String
        var readerKey: [UInt8]
        /// Host time minus the reader's clock, in seconds.
        var offset: TimeInterval
    }

    /// What the engine is busy with (the seed: preparing, clearing or a transaction make the others `.busy`).
    enum Operation: Sendable, Equatable {
        case idle, preparing, clearing, transacting
    }

    struct State: Sendable {
        var operation = Operation.idle
        var connection: Connection?
        /// The session a token bought during a prepare, until the prepare completes.
        var pending: (session: ReaderSession, token: String)?
        var endpoint: URL?
    }

    let sandbox: GeopagosSandbox
    let reader: Reader
    let state: LockedValueBox<State>
    @_spi(Readers) public let device: Device

    @_spi(Readers)
    public init(
        tokenProvider: @escaping Reader.TokenProvider, accountLinking: @escaping Reader.AccountLinkingHandler,
        onReaderNotice: @escaping Reader.NoticeHandler
    ) {
        let sandbox = GeopagosSandbox.current
        self.sandbox = sandbox
        let state = LockedValueBox(State())
        self.state = state
        let transport = DeviceTransport(timeout: sandbox.requestTimeout, userAgent: "GeopagosPayments/\(PaymentsSDK.version)")
        let deviceId = sandbox.deviceId
        let model = sandbox.device.model
        reader = Reader(
            device: sandbox.device, clock: sandbox.clock, location: nil, script: sandbox.readerScript, accountLinked: sandbox.accountLinked,
            tokenProvider: tokenProvider, accountLinking: accountLinking, onReaderNotice: onReaderNotice,
            tokenCheck: { token throws(ReaderError) in
                guard let endpoint = state.withLockedValue({ $0.endpoint }) else { throw .connectionFailed("PaymentsSDK is not configured") }
                let body = ReaderSessionRequest(readerToken: token, deviceId: deviceId, deviceModel: model)
                switch await HostCall.send(transport, endpoint, "POST", "/terminal/v1/reader-sessions", body: body, as: ReaderSession.self) {
                case .value(let session):
                    state.withLockedValue { $0.pending = (session, token) }
                    return .valid
                case .refused(_, ErrorCode.readerTokenExpired.rawValue, _):
                    return .expired
                case .refused(_, let code, let message):
                    return .invalid(message ?? code ?? "refused")
                case .notSent(let detail), .noAnswer(let detail):
                    throw .connectionFailed(detail)
                }
            })
        device = Device(id: "tap-to-pay:" + deviceId, name: "Tap to Pay on iPhone", model: sandbox.device.model)
        self.transport = transport
    }

    let transport: DeviceTransport

    @_spi(Readers) public var isSupported: Bool { reader.isTapToPaySupported }

    func use(endpoint: URL) {
        state.withLockedValue { $0.endpoint = endpoint }
    }

    var connection: Connection? { state.withLockedValue { $0.connection } }

    // MARK: - Connection

    /// Why a prepare or clear did not succeed.
    @_spi(Readers)
    public enum Failure: Error, Sendable, Equatable {
        case busy, notSupported, notConfigured
        /// The token provider returned `.cancel`, or the host could not be reached: a connection error.
        case connection(String)
        case accountLinkingCancelled
        case notice(ReaderNotice)
        case appInBackground
    }

    /// Prepares the reader: a token from the app, judged by the host (the session), Apple's terms if
    /// needed, then the reader key of the session.
    @_spi(Readers)
    public func prepare() async -> Result<Void, Failure> {
        guard reader.isTapToPaySupported else { return .failure(.notSupported) }
        let started = state.withLockedValue { state -> Result<Void, Failure> in
            guard state.endpoint != nil else { return .failure(.notConfigured) }
            guard state.operation == .idle else { return .failure(.busy) }
            state.operation = .preparing
            state.pending = nil
            return .success(())
        }
        if case .failure = started { return started }
        defer { state.withLockedValue { $0.operation = .idle } }
        do throws(ReaderError) {
            try await reader.prepare()
        } catch {
            state.withLockedValue { $0.connection = nil }
            return .failure(Self.failure(error))
        }
        guard let (session, token) = state.withLockedValue({ $0.pending }) else {
            // A token the script judged valid without asking the host: there is no session.
            return .failure(.connection("the host did not open a session for the token"))
        }
        switch await keys(session) {
        case .success(let (key, offset)):
            state.withLockedValue { $0.connection = Connection(session: session, readerToken: token, readerKey: key, offset: offset) }
            return .success(())
        case .failure(let failure):
            return .failure(failure)
        }
    }

    /// The reader key and the clock offset of a session (`POST /terminal/v1/reader/prepare`).
    private func keys(_ session: ReaderSession?) async -> Result<([UInt8], TimeInterval), Failure> {
        guard let endpoint = state.withLockedValue({ $0.endpoint }) else { return .failure(.notConfigured) }
        // A new session's own token, or the connection's (renewed when it ended).
        let answer: HostCall.Answer<ReaderConfiguration> =
            if let session {
                await HostCall.send(transport, endpoint, "POST", "/terminal/v1/reader/prepare", bearer: session.sessionToken)
            } else {
                await call("POST", "/terminal/v1/reader/prepare")
            }
        guard case .value(let configuration) = answer else { return .failure(.connection("the reader configuration did not arrive")) }
        guard let keys = ReaderSealing(configuration, now: sandbox.clock.now()) else {
            return .failure(.connection("the reader configuration is not readable"))
        }
        return .success((keys.key, keys.offset))
    }

    /// The connection with its clock offset measured again (`POST /terminal/v1/reader/prepare`): a
    /// card read's time is the host's, whichever clock moved since the prepare.
    func refreshedConnection() async -> Connection? {
        guard let connection else { return nil }
        guard case .success(let (key, offset)) = await keys(nil) else { return connection }
        return state.withLockedValue { state -> Connection? in
            state.connection?.readerKey = key
            state.connection?.offset = offset
            return state.connection
        }
    }

    /// Ends the connection and the host's session; with nothing prepared, or on an unsupported
    /// phone, it succeeds at once.
    @_spi(Readers)
    public func clear() async -> Result<Void, Failure> {
        guard reader.isTapToPaySupported else { return .success(()) }
        let started = state.withLockedValue { state -> Bool in
            guard state.operation == .idle else { return false }
            state.operation = .clearing
            return true
        }
        guard started else { return .failure(.busy) }
        defer { state.withLockedValue { $0.operation = .idle } }
        do throws(ReaderError) {
            try await reader.clear()
        } catch {
            return .failure(Self.failure(error))
        }
        let ended = state.withLockedValue { state -> (URL?, Connection?) in
            defer { state.connection = nil }
            return (state.endpoint, state.connection)
        }
        if let endpoint = ended.0, let connection = ended.1 {
            _ = await HostCall.send(
                transport, endpoint, "DELETE", "/terminal/v1/sessions/current", bearer: connection.session.sessionToken, as: NoAnswer.self)
        }
        return .success(())
    }

    /// The customer a test queued on the host for `terminalId`'s next card screen, taken (``ScriptedCustomer``).
    func scriptedCustomer(terminalId: String) async -> CardScript? {
        guard let endpoint = state.withLockedValue({ $0.endpoint }) else { return nil }
        return await ScriptedCustomer.next(host: endpoint, terminalId: terminalId, transport: transport)
    }

    @_spi(Readers)
    public func presentEducation() async -> EducationResult {
        await reader.presentEducation()
    }

    static func failure(_ error: ReaderError) -> Failure {
        if error == .busy { return .busy }
        if error == .tokenCancelled { return .connection("no reader token was provided") }
        if error == .accountLinkingCancelled { return .accountLinkingCancelled }
        if error == .appInBackground { return .appInBackground }
        if let notice = error.notice { return .notice(notice) }
        if error.unsupportedReason != nil { return .notSupported }
        return .connection(error.message)
    }

    // MARK: - Transactions

    /// Takes the reader for a transaction; false while a prepare or a clear runs.
    func beginTransaction() -> Bool {
        state.withLockedValue { state in
            guard state.operation == .idle || state.operation == .transacting else { return false }
            state.operation = .transacting
            return true
        }
    }

    func endTransaction() {
        state.withLockedValue { if $0.operation == .transacting { $0.operation = .idle } }
    }

    /// A call of the terminal API with the connection's session; an ended session (`session_expired`)
    /// is renewed once with the connection's reader token.
    func call<Answer: Decodable & Sendable>(
        _ method: String, _ path: String, body: (any Encodable & Sendable)? = nil, as type: Answer.Type = Answer.self
    ) async -> HostCall.Answer<Answer> {
        guard let endpoint = state.withLockedValue({ $0.endpoint }), let connection else { return .notSent("the reader is not connected") }
        let first = await HostCall.send(transport, endpoint, method, path, body: body, bearer: connection.session.sessionToken, as: type)
        guard case .refused(401, ErrorCode.sessionExpired.rawValue, _) = first else { return first }
        let request = ReaderSessionRequest(readerToken: connection.readerToken, deviceId: sandbox.deviceId, deviceModel: sandbox.device.model)
        guard case .value(let session) = await HostCall.send(transport, endpoint, "POST", "/terminal/v1/reader-sessions", body: request, as: ReaderSession.self)
        else { return first }
        state.withLockedValue { $0.connection?.session = session }
        return await HostCall.send(transport, endpoint, method, path, body: body, bearer: session.sessionToken, as: type)
    }
}

/// An answer with no body to read (204, or one the caller ignores).
typealias NoAnswer = JSONClient.Empty

/// One HTTP call of the device to the host, its answer reduced to what the SDK decides on.
enum HostCall {
    enum Answer<Value: Sendable>: Sendable {
        /// A 2xx answer that decodes.
        case value(Value)
        /// The host refused: its status, the envelope's code and message.
        case refused(status: Int, code: String?, message: String?)
        /// Nothing was sent: the request certainly did nothing.
        case notSent(String)
        /// Sent, and no usable answer came: the host may have done it.
        case noAnswer(String)
    }

    static func send<Value: Decodable & Sendable>(
        _ transport: DeviceTransport, _ base: URL, _ method: String, _ path: String, body: (any Encodable & Sendable)? = nil,
        bearer: String? = nil, as type: Value.Type = Value.self
    ) async -> Answer<Value> {
        switch await JSONClient(baseURL: base, transport: transport).send(method, path, body: body, bearer: bearer, as: type) {
        case .value(let value): return .value(value)
        case .failed(let failure): return failure.kind == .unreachable ? .notSent(failure.message) : .noAnswer(failure.message)
        case .invalidURL(let message), .unencodable(let message): return .notSent(message)
        case .undecodable(_, let message): return .noAnswer(message)
        case .refused(let status, let envelope, _): return .refused(status: status, code: envelope?.error.code.rawValue, message: envelope?.error.message)
        }
    }
}
