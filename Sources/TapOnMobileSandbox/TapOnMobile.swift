// The UIKit stand-ins (`UIViewController` off Apple platforms) come with the SDK, as UIKit does on iOS.
@_exported import DeviceUI
import LockedValue
import Foundation
import SimulatedReader

/// The TapOnMobile SDK, over a sandbox host and the simulated reader.
///
/// It has the seed's calls with the seed's names and labels. Where the seed returns
/// `AnyPublisher<Result<T, TapOnMobileError>, Never>`, a call here is
/// `async -> Result<T, TapOnMobileError>`; calls that emit events return an `AsyncStream` of
/// results. Where Combine exists, the seed's publishers are there as well.
///
/// ```swift
/// let sdk = TapOnMobile.shared
/// _ = await sdk.initialization(environment: .sandboxEU)
/// let challenge = try await sdk.beginRegistration().get()        // confirm it in the portal
/// _ = await sdk.endRegistration(backofficeCode: "EU-483920", pin: "1234")
/// _ = await sdk.doLogin(pin: "1234")
/// _ = await sdk.prepareDeviceAndWait()
/// for await result in sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil) {
///     if case .success(.completed(let detail)) = result { print(detail.transactionStatus) }
/// }
/// ```
///
/// ``shared`` is one device; tests make several with ``init(configuration:)``, each with its own
/// device directory, reader and session.
public final class TapOnMobile: @unchecked Sendable {
    /// The default device: `sandbox up` on this machine, state in `.sandbox/device`, until
    /// ``configure(_:)`` says otherwise.
    public static let shared = TapOnMobile()

    /// Posted (object: the SDK instance) when a call meets an ended session.
    public static let SESSION_EXPIRED_NOTIFICATION = Notification.Name("SessionExpired")
    /// Posted (object: the SDK instance) when the host unregistered the device because it did
    /// not log in for more than three months; the local registration is forgotten.
    public static let CERTIFICATES_EXPIRED_UNREGISTERED_NOTIFICATION = Notification.Name("CertificatesExpiredUnregistered")

    /// The SDK's version; ``getSDKVersion()`` answers `sandbox-` and this.
    public static let version = "0.1.0"

    /// The logged-in session, in memory only.
    struct Session: Sendable {
        var token: String
        var expiresAtUnix: Double
    }

    /// What the host's reader prepare gave: the key to seal with and the clock offset.
    struct ReaderSession: Sendable {
        var key: [UInt8]
        var keyId: String
        /// Host time minus device time, in seconds.
        var offset: TimeInterval
    }

    /// What the reader's token provider hands out.
    struct TokenSlot: Sendable {
        var token: String?
        var relink = false
    }

    /// Everything mutable, behind one lock.
    struct Runtime {
        var configuration: SandboxConfiguration
        var reader: Reader
        var tokenSlot: LockedValueBox<TokenSlot>
        var store: DeviceStore
        var environment: Environments?
        var client: TerminalClient?
        var appVersion: String?
        /// The flavour the host said it runs (`/healthz`), which may differ from the environment's.
        var hostFlavour: String?
        var session: Session?
        var readerSession: ReaderSession?
        var percentage = 0
        var listeners: [any PrepareDeviceListener] = []
        /// The last transaction that stopped at `DCC_REQUIRED`, for `doMakeTransactionFinishDCC(transactionId: nil, …)`.
        var pendingDCC: String?
        var locationAuthorization: LocationAuthorization?
    }

    let runtime: LockedValueBox<Runtime>

    /// The default device: `sandbox up`'s ports on this machine, state in `.sandbox/device`.
    public convenience init() {
        self.init(configuration: SandboxConfiguration())
    }

    /// A device of its own.
    ///
    /// - Parameter configuration: Endpoints, device directory and simulated reader.
    public init(configuration: SandboxConfiguration) {
        runtime = LockedValueBox(Self.makeRuntime(configuration))
    }

    /// Replaces the sandbox set-up (not in the seed): endpoints, device directory, reader, clock.
    ///
    /// The SDK must be initialized again afterwards; the session and the prepared reader are gone.
    public func configure(_ configuration: SandboxConfiguration) {
        let fresh = Self.makeRuntime(configuration)
        runtime.withLockedValue { $0 = fresh }
    }

    /// The current sandbox set-up.
    public var configuration: SandboxConfiguration { runtime.withLockedValue { $0.configuration } }

    /// The flavour (`uat`, `sandbox`, `pre`, `prod`) the host of the initialized environment says it
    /// runs (not in the seed): one sandbox host serves every flavour of its region, so an app that
    /// asked for `prodEU` can tell it is talking to a `sandbox` host. Nil before initialization or
    /// when the host does not say.
    public var hostFlavour: String? { runtime.withLockedValue { $0.hostFlavour } }

    /// The simulated reader, for scripting what Apple and the customer do (``Reader/present(_:)``,
    /// ``Reader/appDidEnterBackground()`` …).
    public var reader: Reader { runtime.withLockedValue { $0.reader } }

    private static func makeRuntime(_ configuration: SandboxConfiguration) -> Runtime {
        let slot = LockedValueBox(TokenSlot())
        let reader = Reader(
            device: configuration.device, requirements: configuration.supportRequirements, clock: configuration.clock,
            location: configuration.location ?? .authorized(country: "BE", fixAfter: 0), script: configuration.readerScript,
            accountLinked: configuration.accountLinked,
            tokenProvider: { _ in
                let current = slot.withLockedValue { $0 }
                guard let token = current.token else { return .cancel }
                slot.withLockedValue { $0.relink = false }
                return .provide(token, requiresRelink: current.relink)
            },
            accountLinking: configuration.accountLinking, onReaderNotice: configuration.onReaderNotice)
        return Runtime(
            configuration: configuration, reader: reader, tokenSlot: slot,
            store: DeviceStore(directory: configuration.deviceDirectory, makeIdentifier: configuration.makeIdentifier),
            locationAuthorization: configuration.location?.authorization ?? .authorized)
    }
}

// MARK: - What a call needs

extension TapOnMobile {
    /// An initialized SDK: the host and the device state.
    struct Context: Sendable {
        var client: TerminalClient
        var environment: Environments
        var store: DeviceStore
        var reader: Reader

        var region: String { environment.region }
    }

    /// A registered device on the current environment.
    struct Registered: Sendable {
        var context: Context
        var deviceId: String
        var registration: DeviceState.Registration
    }

    /// A logged-in device.
    struct LoggedIn: Sendable {
        var registered: Registered
        var token: String

        var client: TerminalClient { registered.context.client }
        var terminalId: String { registered.registration.terminalId }
    }

    func context() throws(TapOnMobileError) -> Context {
        let (client, environment, store, reader) = runtime.withLockedValue { ($0.client, $0.environment, $0.store, $0.reader) }
        guard let client, let environment else { throw .initialization(.notInitialized) }
        return Context(client: client, environment: environment, store: store, reader: reader)
    }

    func registered() throws(TapOnMobileError) -> Registered {
        let context = try context()
        let state = try context.store.load()
        guard let registration = state.registration, registration.region == context.region else {
            throw .session(.terminalUnregistered)
        }
        return Registered(context: context, deviceId: state.installationId, registration: registration)
    }

    func loggedIn() throws(TapOnMobileError) -> LoggedIn {
        let registered = try registered()
        guard let token = runtime.withLockedValue({ $0.session?.token }) else { throw .session(.sessionError) }
        return LoggedIn(registered: registered, token: token)
    }

    /// Runs `body` with what it needs, turning a missing precondition into the result's failure.
    func with<T, Needs>(
        _ needs: () throws(TapOnMobileError) -> Needs, _ body: (Needs) async -> Result<T, TapOnMobileError>
    ) async -> Result<T, TapOnMobileError> {
        let value: Needs
        do throws(TapOnMobileError) {
            value = try needs()
        } catch {
            return .failure(error)
        }
        return await body(value)
    }

    /// Sends a request and applies what its failure means for the device (see ``observe(_:)``).
    func send<Answer: Decodable & Sendable>(
        _ client: TerminalClient, _ method: String, _ path: String, query: [(String, String)] = [],
        body: (any Encodable)? = nil, bearer: String? = nil, idempotent: Bool = false, as type: Answer.Type = Answer.self
    ) async -> Result<Answer, TapOnMobileError> {
        let key = idempotent ? runtime.withLockedValue { $0.configuration.makeIdentifier() } : nil
        let result = await client.send(method, path, query: query, body: body, bearer: bearer, idempotencyKey: key, as: type)
        if case .failure(let error) = result { observe(error) }
        return result
    }

    /// What an error means beyond the call: an ended session is dropped (and announced); an
    /// unregistered device forgets its registration (and certificate expiry is announced).
    func observe(_ error: TapOnMobileError) {
        guard case .session(let session) = error else { return }
        switch session.kind {
        case .sessionExpired:
            dropSession()
            NotificationCenter.default.post(name: Self.SESSION_EXPIRED_NOTIFICATION, object: self)
        case .certificatesExpired:
            forgetRegistration()
            NotificationCenter.default.post(name: Self.CERTIFICATES_EXPIRED_UNREGISTERED_NOTIFICATION, object: self)
        case .terminalUnregistered:
            forgetRegistration()
        case .sessionError where session.status != nil:
            // The host no longer knows the token (a sandbox reset): it is of no use any more.
            dropSession()
        default:
            break
        }
    }

    func dropSession() {
        let store = runtime.withLockedValue {
            $0.session = nil
            $0.readerSession = nil
            $0.pendingDCC = nil
            return $0.store
        }
        try? store.update { $0.session = nil }
    }

    /// Forgets the registration (and what belonged to it); the installation id and support number stay.
    func forgetRegistration() {
        dropSession()
        let store = runtime.withLockedValue { $0.store }
        _ = try? store.update {
            $0.registration = nil
            $0.lastTransaction = nil
        }
    }
}
