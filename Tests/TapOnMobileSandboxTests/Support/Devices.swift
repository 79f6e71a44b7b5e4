import Foundation
import TapOnMobileSandbox
import SandboxTestSupport
import Testing

// Simulated phones running the SDK against a live sandbox, and small recorders for what the
// SDK reports (listener calls, notifications, stream events).

/// The shipped test cards (`sandbox-data/cards.json`).
let cards = ShippedCards.catalogue

func card(_ name: String) -> TestCard { ShippedCards.card(name) }

/// One phone: the SDK, its folder and its reader's clock.
struct Phone {
    let sdk: TapOnMobile
    let directory: TemporaryDirectory
    let clock: ManualReaderClock

    var deviceFile: URL { directory.file("device/device.json") }
}

/// A phone pointed at `sandbox` through endpoint overrides, with a manual reader clock (the card
/// screen takes no time) and its own device folder.
func makePhone(
    _ sandbox: LiveSandbox, directory: TemporaryDirectory = TemporaryDirectory(), device: Device = .standard,
    location: LocationScript? = nil, cardScripts: SandboxConfiguration.CardScriptProvider? = nil,
    accountLinking: @escaping Reader.AccountLinkingHandler = { _ in .confirm },
    onSDKScreen: @escaping @Sendable (SDKScreen) async -> Void = { _ in }, callbackQueue: DispatchQueue? = nil
) -> Phone {
    let clock = ManualReaderClock()
    let configuration = SandboxConfiguration(
        endpointOverrides: sandbox.endpoints, endpointsFile: nil, deviceDirectory: directory.file("device"), device: device,
        clock: clock, readerScript: ReaderScript(preparationSeconds: 2), cardScripts: cardScripts, location: location,
        accountLinking: accountLinking, onSDKScreen: onSDKScreen, callbackQueue: callbackQueue)
    return Phone(sdk: TapOnMobile(configuration: configuration), directory: directory, clock: clock)
}

/// `result`'s value, or a recorded issue naming `step` and the error.
func value<T>(_ result: Result<T, TapOnMobileError>, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
    switch result {
    case .success(let value): return value
    case .failure(let error):
        Issue.record("\(step): \(error)", sourceLocation: sourceLocation)
        throw error
    }
}

/// `result`'s error, or a recorded issue when it succeeded.
func failure<T>(_ result: Result<T, TapOnMobileError>, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> TapOnMobileError
{
    switch result {
    case .success(let value):
        Issue.record("\(step): expected a failure, got \(value)", sourceLocation: sourceLocation)
        throw BackOfficeFailure(description: "\(step) succeeded")
    case .failure(let error): return error
    }
}

/// Every result of an SDK stream, in order.
func collect<Event>(_ stream: AsyncStream<Result<Event, TapOnMobileError>>) async -> [Result<Event, TapOnMobileError>] {
    var results: [Result<Event, TapOnMobileError>] = []
    for await result in stream { results.append(result) }
    return results
}

/// Runs a payment or refund stream and answers its events and the completed detail.
func transaction(
    _ stream: AsyncStream<Result<TransactionProcessEvent, TapOnMobileError>>, _ step: String,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> (events: [TransactionProcessEvent], detail: TransactionDetail) {
    let results = await collect(stream)
    var events: [TransactionProcessEvent] = []
    for result in results {
        switch result {
        case .success(let event): events.append(event)
        case .failure(let error):
            Issue.record("\(step): \(error)", sourceLocation: sourceLocation)
            throw error
        }
    }
    guard case .completed(let detail)? = events.last else {
        Issue.record("\(step): the stream ended without .completed: \(events)", sourceLocation: sourceLocation)
        throw BackOfficeFailure(description: "\(step): no completion")
    }
    return (events, detail)
}

/// Records what a prepare listener hears.
final class ProgressRecorder: PrepareDeviceListener, @unchecked Sendable {
    private let lock = NSLock()
    private var _percentages: [Int] = []
    private var _completed = 0
    private var _errors: [TapOnMobileError] = []

    var percentages: [Int] { lock.withLock { _percentages } }
    var completed: Int { lock.withLock { _completed } }
    var errors: [TapOnMobileError] { lock.withLock { _errors } }

    func onPercentageUpdated(percentage: Int) { lock.withLock { _percentages.append(percentage) } }
    func onCompleted() { lock.withLock { _completed += 1 } }
    func onError(error: TapOnMobileError) { lock.withLock { _errors.append(error) } }
}

/// Counts the notifications one SDK instance posts under `name`.
final class NotificationCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var _count = 0
    private var token: (any NSObjectProtocol)?

    init(_ name: Notification.Name, from sdk: TapOnMobile) {
        token = NotificationCenter.default.addObserver(forName: name, object: sdk, queue: nil) { [weak self] _ in
            guard let self else { return }
            self.lock.withLock { self._count += 1 }
        }
    }

    deinit {
        if let token { NotificationCenter.default.removeObserver(token) }
    }

    var count: Int { lock.withLock { _count } }
}

/// Registers `phone` on `terminal` through the merchant portal (begin → back office confirms →
/// verify → end), then logs in and prepares the reader.
func registerAndPrepare(
    _ phone: Phone, on terminal: String, in sandbox: LiveSandbox, environment: Environments, pin: String = "2468",
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let sdk = phone.sdk
    _ = try value(await sdk.initialization(environment: environment), "initialization", sourceLocation: sourceLocation)
    let challenge = try value(await sdk.beginRegistration(), "beginRegistration", sourceLocation: sourceLocation)
    let code = try await sandbox.backOffice(environment.region).confirm(challenge: challenge, terminal: terminal)
    _ = try value(await sdk.endRegistration(backofficeCode: code, pin: pin), "endRegistration", sourceLocation: sourceLocation)
    _ = try value(await sdk.doLogin(pin: pin), "doLogin", sourceLocation: sourceLocation)
    _ = try value(await sdk.prepareDeviceAndWait(), "prepareDevice", sourceLocation: sourceLocation)
}
