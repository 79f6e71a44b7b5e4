import Foundation
import SandboxWire
import SimulatedReader

extension TapOnMobile {
    /// Whether the phone supports Tap to Pay on iPhone (iPhone 11 or later on iOS 16.7 or later by
    /// default; see ``SandboxConfiguration/device``).
    public func isTapToPaySupported() -> Bool {
        reader.isTapToPaySupported
    }

    /// Initializes the SDK for an environment: the device must support Tap to Pay on iPhone, and
    /// the environment's sandbox host must answer as that region.
    ///
    /// ```swift
    /// switch await TapOnMobile.shared.initialization(environment: .sandboxEU, appVersion: "1.2.0") {
    /// case .success: showLanding()
    /// case .failure(let error): print(error)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - environment: Region and flavour; the region picks the host (``SandboxConfiguration/endpoint(for:)``).
    ///   - appVersion: The app's version, for the log.
    ///   - language: The language of the SDK's screens; kept as before (English at first) when `nil`.
    /// - Returns: `Success`, or `cardReaderSession(.unsupported)`, `initialization(.unknownEnvironment)`,
    ///   `initialization(.wrongEnvironment)`, `initialization(.storageUnavailable)`, `network(.unreachable)`.
    public func initialization(
        environment: Environments, appVersion: String? = nil, language: TapOnMobileLanguage? = nil
    ) async -> Result<Success, TapOnMobileError> {
        let (configuration, reader, store) = runtime.withLockedValue { ($0.configuration, $0.reader, $0.store) }
        if case .unsupported(let reason) = reader.support {
            return .failure(
                .cardReaderSession(
                    CardReaderSessionError(.unsupported, message: "Tap to Pay on iPhone is not supported on this device: \(reason)")))
        }
        let url: URL
        do throws(TapOnMobileError) {
            guard let found = try configuration.endpoint(for: environment.region) else {
                return .failure(
                    .initialization(
                        InitializationError(.unknownEnvironment, message: "No sandbox host is known for region \(environment.region).")))
            }
            url = found
            try store.update { state in
                if let language { state.language = language }
            }
        } catch {
            return .failure(error)
        }

        // The host must be up and be the environment's region.
        let client = TerminalClient(baseURL: url, timeout: configuration.requestTimeout)
        let hostFlavour: String?
        switch await client.send("GET", "/healthz", as: HostHealth.self) {
        case .failure(let error):
            return .failure(error)
        case .success(let health) where health.region != nil && health.region != environment.region:
            return .failure(
                .initialization(
                    InitializationError(
                        .wrongEnvironment,
                        message: "\(url.absoluteString) is the host of \(health.region ?? "?"), not of \(environment.region).")))
        case .success(let health):
            hostFlavour = health.flavour
        }

        if configuration.location == nil {
            await reader.location?.update(.authorized(country: environment.homeCountry, fixAfter: 0))
        }
        // A session kept from an earlier launch on this environment's host is taken up again; the
        // host still decides whether it is alive.
        let kept = (try? runtime.withLockedValue { $0.store }.load())?.session
        runtime.withLockedValue {
            if $0.environment != environment { $0.session = nil; $0.readerSession = nil; $0.pendingDCC = nil }
            if $0.session == nil, let kept, kept.region == environment.region {
                $0.session = Session(token: kept.token, expiresAtUnix: kept.expiresAtUnix)
            }
            $0.environment = environment
            $0.client = client
            $0.appVersion = appVersion
            $0.hostFlavour = hostFlavour
        }
        Environments.current = environment
        return .success(Success())
    }

    /// Changes the language of the SDK's screens and keeps it on the device.
    ///
    /// - Returns: `Success`, or `initialization(.notInitialized)`.
    @_disfavoredOverload
    public func updateLanguage(language: TapOnMobileLanguage) -> Result<Success, TapOnMobileError> {
        do throws(TapOnMobileError) {
            let context = try context()
            try context.store.update { $0.language = language }
            return .success(Success())
        } catch {
            return .failure(error)
        }
    }

    /// The language of the SDK's screens: the last one set, English before any (not in the seed).
    public var language: TapOnMobileLanguage {
        let store = runtime.withLockedValue { $0.store }
        return (try? store.load().language) ?? .english
    }

    /// The SDK's version, `sandbox-` and its semantic version (`sandbox-0.1.0`).
    public func getSDKVersion() async -> Result<String, TapOnMobileError> {
        .success("sandbox-\(Self.version)")
    }
}
