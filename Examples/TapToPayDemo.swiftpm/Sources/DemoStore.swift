#if canImport(Combine)
import Combine
#endif
import Foundation
import TapOnMobileSandbox

/// The app's state and every SDK call it makes, in the order of the TapOnMobile flow: support
/// check, initialization, merchant-portal registration, login, device preparation, then sales,
/// refunds, reversals and the history. Views read it and call its methods.
///
/// Only `configure(_:)` and `reader` are the sandbox's own (where the host is, what the customer
/// does at the card screen, what iOS tells Apple's reader); every other call is the vendor's.
///
/// The app's tests make it with `configure`, which has the last word on the SDK's configuration
/// (the sandbox they started, the device's folder a seed wrote, a reader clock that skips the
/// waits); the app passes none.
@MainActor
final class DemoStore: ObservableObject {
    /// Where the merchant is in the flow.
    enum Stage: Equatable {
        /// `isTapToPaySupported()` said no: nothing else is possible on this phone.
        case unsupported
        /// Not initialized yet, or the sandbox could not be reached (see ``message``).
        case starting
        /// Initialized; the device has no terminal on this environment yet.
        case notRegistered
        /// Registered; no session.
        case loggedOut
        /// Logged in: the reader is prepared, payments can be taken.
        case loggedIn
    }

    /// The environment the app runs on. The sandbox has one host per region; Settings says where
    /// the EU host listens.
    static let environment = Environments.sandboxEU
    /// `make run` on this Mac, as the iOS Simulator reaches it.
    static let defaultHost = "http://127.0.0.1:8100"

    private let sdk = TapOnMobile.shared
    private let customerChoice = CustomerChoice()
    private let configure: @Sendable (inout SandboxConfiguration) -> Void
    private var listener: PrepareProgress?
    private var observers: [any NSObjectProtocol] = []

    // Settings, kept in UserDefaults.
    @Published private(set) var hostAddress: String
    @Published private(set) var pretendsUnsupported: Bool

    @Published private(set) var stage = Stage.starting
    /// A call is running.
    @Published private(set) var working = false
    /// The last failure or notice, for people.
    @Published private(set) var message: String?
    /// The code to confirm in the merchant portal, between the two registration steps.
    @Published private(set) var challengeCode: String?
    /// The terminal of the session.
    @Published private(set) var terminal: TerminalInfo?
    /// 0 … 100 while the reader is being prepared.
    @Published private(set) var preparePercentage: Int?
    @Published private(set) var readerReady = false
    /// What the customer does at the next card screen.
    @Published private(set) var customer = Customer.taps
    /// What the current or last card screen went through, and the transaction it made.
    @Published private(set) var cardSteps: [String] = []
    @Published private(set) var cardResult: TransactionDetail?
    @Published private(set) var history: [TransactionHistoryItem] = []

    init(configure: @escaping @Sendable (inout SandboxConfiguration) -> Void = { _ in }) {
        self.configure = configure
        hostAddress = UserDefaults.standard.string(forKey: Keys.hostAddress) ?? Self.defaultHost
        pretendsUnsupported = UserDefaults.standard.bool(forKey: Keys.pretendsUnsupported)
        // A call that meets an ended session (ten minutes in the sandbox flavour) posts this.
        observers.append(
            NotificationCenter.default.addObserver(forName: TapOnMobile.SESSION_EXPIRED_NOTIFICATION, object: nil, queue: .main) {
                [weak self] _ in
                MainActor.assumeIsolated { self?.sessionEnded("The session expired: log in again.") }
            })
    }

    /// The terminal's currency; the EU terminals' until logged in.
    var currency: String { terminal?.currency.code ?? "EUR" }

    /// The merchant portal of the same `sandbox up`: nine ports above the EU host.
    var portalAddress: String {
        guard var components = URLComponents(string: hostAddress), let port = components.port else { return "http://<your Mac>:8109/" }
        components.port = port + 9
        components.path = "/"
        return components.string ?? "http://<your Mac>:8109/"
    }

    // MARK: - Start

    /// Points the SDK at the sandbox, checks the phone and initializes: at launch and after Settings.
    func start() async {
        reset()
        guard let url = URL(string: hostAddress), ["http", "https"].contains(url.scheme), url.host() != nil else {
            message = "\(hostAddress) is not an address such as \(Self.defaultHost): see Settings."
            return
        }
        var configuration = SandboxConfiguration()
        configuration.endpointOverrides["EU"] = url
        if pretendsUnsupported {
            // An iPhone XR: Tap to Pay on iPhone needs an iPhone 11 or later.
            configuration.device = Device(model: "iPhone11,8", osVersion: "18.0")
        }
        let choice = customerChoice
        configuration.cardScripts = { _ in choice.customer.script }
        // A UI test seeds a device and writes its folder on the Mac (the Simulator reads the Mac's
        // files), then launches the app with TAPSANDBOX_DEVICE_FOLDER in its launchEnvironment.
        if let folder = ProcessInfo.processInfo.environment["TAPSANDBOX_DEVICE_FOLDER"], !folder.isEmpty {
            configuration.deviceDirectory = URL(fileURLWithPath: folder, isDirectory: true)
        }
        configure(&configuration)
        sdk.removeAllPrepareDeviceListeners()
        sdk.configure(configuration)

        guard sdk.isTapToPaySupported() else {
            stage = .unsupported
            return
        }
        await run {
            switch await sdk.initialization(environment: Self.environment, appVersion: "1.0.0") {
            case .failure(let error):
                fail(error)
            case .success:
                switch await sdk.isDeviceRegistered() {
                case .success(let registered): stage = registered ? .loggedOut : .notRegistered
                case .failure(let error): fail(error)
                }
            }
        }
    }

    /// Keeps new settings and starts again with them.
    func apply(hostAddress: String, pretendsUnsupported: Bool) async {
        self.hostAddress = hostAddress.trimmingCharacters(in: .whitespacesAndNewlines)
        self.pretendsUnsupported = pretendsUnsupported
        UserDefaults.standard.set(self.hostAddress, forKey: Keys.hostAddress)
        UserDefaults.standard.set(pretendsUnsupported, forKey: Keys.pretendsUnsupported)
        await start()
    }

    // MARK: - Registration and session

    /// Step 1 of a portal registration: the challenge code the merchant confirms in the portal.
    func beginRegistration() async {
        await run {
            switch await sdk.beginRegistration() {
            case .success(let code): challengeCode = code
            case .failure(let error): fail(error)
            }
        }
    }

    /// Step 3: the back-office code the portal gave, and the secure code to log in with.
    func endRegistration(backofficeCode: String, pin: String) async {
        await run {
            let code = backofficeCode.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
            switch await sdk.endRegistration(backofficeCode: code, pin: pin.isEmpty ? nil : pin) {
            case .success:
                challengeCode = nil
                stage = .loggedOut
            case .failure(let error):
                fail(error)
            }
        }
    }

    func login(pin: String) async {
        await run {
            switch await sdk.doLogin(pin: pin.isEmpty ? nil : pin) {
            case .failure(let error):
                fail(error)
            case .success:
                stage = .loggedIn
                if case .success(let info) = await sdk.getTerminalInfo() { terminal = info }
                prepareReader()
            }
        }
    }

    func logout() async {
        await run {
            switch await sdk.doLogout() {
            case .success: sessionEnded(nil)
            case .failure(let error): fail(error)
            }
        }
    }

    /// Frees the terminal: the device must register again.
    func unregister() async {
        await run {
            switch await sdk.unregister() {
            case .success:
                sessionEnded(nil)
                stage = .notRegistered
            case .failure(let error):
                fail(error)
            }
        }
    }

    // MARK: - Reader

    /// Prepares the reader, after login and whenever the app becomes active (the seed asks for
    /// both); the percentages arrive at the listener.
    func prepareReader() {
        guard stage == .loggedIn, preparePercentage == nil else { return }
        let listener = self.listener ?? PrepareProgress(store: self)
        self.listener = listener
        sdk.addPrepareDeviceListener(listener)  // once: adding the same listener again does nothing
        readerReady = false
        preparePercentage = 0
        sdk.prepareDevice()
    }

    fileprivate func prepareProgressed(to percentage: Int) {
        if preparePercentage != nil { preparePercentage = percentage }
    }

    fileprivate func prepareEnded(_ error: TapOnMobileError?) {
        preparePercentage = nil
        readerReady = error == nil
        if let error { fail(error) }
    }

    /// The app left the screen or came back. iOS closes Apple's reader session in the background;
    /// the simulated reader is told so by the app (`reader` is the sandbox's).
    func sceneChanged(active: Bool) async {
        if active {
            await sdk.reader.appWillEnterForeground()
            prepareReader()
        } else {
            await sdk.reader.appDidEnterBackground()
            readerReady = false
        }
    }

    func choose(_ customer: Customer) {
        self.customer = customer
        customerChoice.customer = customer
    }

    // MARK: - Transactions

    /// A sale: the card screen, then the host's answer.
    func pay(amount: Int) async {
        await run {
            await follow(sdk.doPayment(currency: currency, requestedAmount: amount, reference: nil))
        }
    }

    /// Refunds a whole sale with the customer's card (once the sale can no longer be reversed).
    func refund(_ sale: TransactionDetail) async {
        await run {
            await follow(
                sdk.doRefund(
                    currency: sale.currency?.code ?? currency, requestedAmount: sale.transactionAmount,
                    transactionId: sale.transactionId, reference: nil))
        }
    }

    /// Cancels the terminal's latest sale, within 30 minutes of it: no card needed.
    func reverse(_ sale: TransactionDetail) async {
        await run {
            switch await sdk.doReversal(transactionId: sale.transactionId) {
            case .success(let success): message = "Reversed: \(success.transactionStatus?.rawValue ?? "done")."
            case .failure(let error): fail(error)
            }
        }
    }

    func loadHistory() async {
        await run {
            switch await sdk.fetchTransactionsHistory(
                page: 1, itemsPerPage: 50, dateFrom: "", dateTo: "", filterStatus: [], filterType: [])
            {
            case .success(let page): history = page.items
            case .failure(let error): fail(error)
            }
        }
    }

    func details(of transactionId: String) async -> TransactionDetail? {
        switch await sdk.fetchTransactionDetails(transactionId: transactionId) {
        case .success(let detail):
            return detail
        case .failure(let error):
            fail(error)
            return nil
        }
    }

    /// Follows a sale's or refund's events to its end.
    private func follow(_ events: AsyncStream<Result<TransactionProcessEvent, TapOnMobileError>>) async {
        cardSteps = []
        cardResult = nil
        for await event in events {
            switch event {
            case .success(.displayingCardReader):
                cardSteps.append("Card screen shown; the customer: \(customer.title.lowercased())")
            case .success(.enteringPin):
                cardSteps.append("The customer types the PIN")
            case .success(.processing):
                cardSteps.append("The host authorises the card")
            case .success(.finishProcessing):
                cardSteps.append("The host answered")
            case .success(.completed(let detail)):
                cardResult = detail
                let outcome = detail.outcomeError.map { " (\($0.message))" } ?? ""
                cardSteps.append("\(detail.transactionType.rawValue) \(detail.transactionStatus.rawValue)\(outcome)")
            case .failure(let error):
                fail(error)
                cardSteps.append("Stopped: \(error.message)")
            }
        }
    }

    // MARK: - Helpers

    private enum Keys {
        static let hostAddress = "hostAddress"
        static let pretendsUnsupported = "pretendsUnsupported"
    }

    /// Runs one step of the flow, with `working` set and the last message cleared.
    private func run(_ body: () async -> Void) async {
        working = true
        message = nil
        await body()
        working = false
    }

    private func fail(_ error: TapOnMobileError) {
        switch error {
        case .network:
            message = "\(error)\nIs the sandbox running on the Mac (make run), at \(hostAddress)? See Settings."
        case .cardReaderSession(let reader) where reader.kind == .notPrepared || reader.kind == .appInBackground:
            readerReady = false
            message = "\(error)"
        default:
            message = "\(error)"
        }
    }

    private func sessionEnded(_ notice: String?) {
        guard stage == .loggedIn else { return }
        stage = .loggedOut
        terminal = nil
        readerReady = false
        preparePercentage = nil
        message = notice
    }

    private func reset() {
        stage = .starting
        message = nil
        challengeCode = nil
        terminal = nil
        preparePercentage = nil
        readerReady = false
        cardSteps = []
        cardResult = nil
        history = []
    }
}

/// The SDK's prepare listener. The SDK calls it from its own task; each call goes on to the
/// store on the main queue.
private final class PrepareProgress: PrepareDeviceListener {
    private weak var store: DemoStore?

    init(store: DemoStore) {
        self.store = store
    }

    func onPercentageUpdated(percentage: Int) {
        DispatchQueue.main.async { [weak store] in store?.prepareProgressed(to: percentage) }
    }

    func onCompleted() {
        DispatchQueue.main.async { [weak store] in store?.prepareEnded(nil) }
    }

    func onError(error: TapOnMobileError) {
        DispatchQueue.main.async { [weak store] in store?.prepareEnded(error) }
    }
}
