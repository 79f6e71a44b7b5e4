import CardPayload
import Foundation
import SandboxCrypto

/// The simulated Tap to Pay on iPhone reader: the device side of a card payment.
///
/// It plays what Apple's ProximityReader and the seed SDKs do on the phone (support check,
/// prepare with progress, token and account linking, merchant education, reader notices,
/// location, the card screen with its 40 s timeout and Try Again, PIN entry) and turns a tap
/// into a sealed payload the environment host opens. What Apple, the merchant and the
/// customer do is scripted (``ReaderScript``, ``CardScript``), and all time comes from an
/// injected ``ReaderClock``, so a test runs a whole journey without waiting.
///
/// ```swift
/// let reader = Reader(
///     clock: clock,
///     tokenProvider: { _ in .provide(token, requiresRelink: false) },
///     accountLinking: { _ in .confirm })
/// try await reader.prepare()
/// await reader.present(.tap(visa, after: 5))
/// let result = try await reader.read(amount: 1250, currency: "EUR", region: "EU",
///                                    terminalId: "EU-T0101", readerKey: key)
/// ```
///
/// One operation runs at a time: a prepare, read or clear started while another runs fails
/// with ``ReaderError/busy``. Going to the background closes the connection
/// (``appDidEnterBackground()``); the app prepares again when it returns.
public actor Reader {
    /// Asks the app for a reader token (Geopagos `TokenProvider`).
    public typealias TokenProvider = @Sendable (TokenRequestReason) async -> TokenRequest
    /// Asks the app whether to show Apple's terms (Geopagos `AccountLinkingHandler`).
    public typealias AccountLinkingHandler = @Sendable (AccountLinkingReason) async -> AccountLinkingDecision
    /// Receives reader notices (Geopagos `onReaderNotice`).
    public typealias NoticeHandler = @Sendable (ReaderNotice) -> Void
    /// Receives card-screen events as they happen.
    public typealias EventHandler = @Sendable (ReaderEvent) async -> Void
    /// Picks the application of a card with several (Geopagos `selectEMVApp`); nil: the read is cancelled.
    public typealias ApplicationSelector = @Sendable ([CardApplication]) async -> CardApplication?
    /// Judges a supplied token as Apple would, for a reader whose tokens a host issues (Geopagos):
    /// `nil` leaves it to the script. A thrown error stops the prepare (the host cannot be reached).
    public typealias TokenCheck = @Sendable (String) async throws(ReaderError) -> TokenVerdict

    /// The phone.
    public nonisolated let device: Device
    /// Whether the phone supports Tap to Pay on iPhone, judged once at creation.
    public nonisolated let support: SupportResult
    /// The location service the prepare consults; `nil` when location is not required.
    public nonisolated let location: DeviceLocation?

    let clock: any ReaderClock
    let random: any RandomSource
    let tokenProvider: TokenProvider
    let accountLinking: AccountLinkingHandler
    let onReaderNotice: NoticeHandler
    let tokenCheck: TokenCheck?

    var machine = StateMachine()
    var script: ReaderScript
    var listeners: [any PrepareListener] = []
    /// Set when the running read must stop: the merchant cancelled it or the app left.
    var interruption: ReaderOutcome?
    /// The token of the prepared connection; cleared by ``clear()``.
    var currentToken: String?
    /// The last card read and what its customer types if the host asks for a PIN.
    var lastRead: (card: TestCard, pinOnRequest: PinEntry)?

    /// The last progress reported; after a background it keeps its value until the next prepare.
    public internal(set) var percentage = 0
    /// Whether the merchant has accepted Apple's terms on this device (done once, unless a
    /// token asks for a relink).
    public internal(set) var isAccountLinked: Bool
    /// Every notice received, in order.
    public internal(set) var receivedNotices: [ReaderNotice] = []
    /// How many times merchant education was shown successfully.
    public internal(set) var educationPresentations = 0

    /// A reader.
    ///
    /// - Parameters:
    ///   - device: The phone; ``Device/standard`` (supported) by default.
    ///   - requirements: The support rule; ``DeviceSupport/Requirements/standard`` by default.
    ///   - clock: Where time comes from; ``LiveReaderClock`` by default, ``ManualReaderClock`` in tests.
    ///   - random: Source of `readId`s and nonces; the system's secure random by default.
    ///   - location: What the user and GPS do, or `nil` to prepare without location.
    ///   - script: What Apple, the merchant and the customer do.
    ///   - accountLinked: Whether the merchant accepted Apple's terms before.
    ///   - tokenProvider: Gives tokens; by default it gives none (`.cancel`).
    ///   - accountLinking: Decides account linking; by default `.confirm`.
    ///   - onReaderNotice: Receives notices; by default ignores them.
    ///   - tokenCheck: Judges each token the app supplies; by default every non-empty token is
    ///     valid unless the script queued a verdict (``ReaderScript/tokenVerdicts``, which come first).
    public init(
        device: Device = .standard,
        requirements: DeviceSupport.Requirements = .standard,
        clock: any ReaderClock = LiveReaderClock(),
        random: any RandomSource = LiveRandomSource(),
        location: LocationScript? = .authorized(country: "BE"),
        script: ReaderScript = ReaderScript(),
        accountLinked: Bool = false,
        tokenProvider: @escaping TokenProvider = { _ in .cancel },
        accountLinking: @escaping AccountLinkingHandler = { _ in .confirm },
        onReaderNotice: @escaping NoticeHandler = { _ in },
        tokenCheck: TokenCheck? = nil
    ) {
        self.device = device
        self.support = DeviceSupport.check(device, requirements: requirements)
        self.clock = clock
        self.random = random
        self.location = location.map { DeviceLocation(clock: clock, script: $0) }
        self.script = script
        self.isAccountLinked = accountLinked
        self.tokenProvider = tokenProvider
        self.accountLinking = accountLinking
        self.onReaderNotice = onReaderNotice
        self.tokenCheck = tokenCheck
    }

    /// Whether the phone supports Tap to Pay on iPhone (TapOnMobile `isTapToPaySupported()`).
    public nonisolated var isTapToPaySupported: Bool { support.isSupported }

    /// Where the connection stands.
    public var state: ReaderState { machine.state }

    /// Whether the app is in the background.
    public var isInBackground: Bool { machine.isInBackground }

    /// Whether a read needs a prepare first (never prepared, cleared, or back from the background).
    public var needsPrepare: Bool { machine.state == .unprepared }

    // MARK: Listeners

    /// Adds a progress listener; adding the same object twice has no effect.
    public func addListener(_ listener: any PrepareListener) {
        guard !listeners.contains(where: { $0 === listener }) else { return }
        listeners.append(listener)
    }

    /// Removes a progress listener; it receives nothing more.
    public func removeListener(_ listener: any PrepareListener) {
        listeners.removeAll { $0 === listener }
    }

    /// Removes every progress listener.
    public func removeAllListeners() {
        listeners.removeAll()
    }

    // MARK: Script

    /// Replaces the whole script.
    public func setScript(_ script: ReaderScript) {
        self.script = script
    }

    /// Queues what the customer does at the next read.
    public func present(_ card: CardScript) {
        script.cards.append(card)
    }

    /// Queues Apple's verdict on the next token supplied.
    public func enqueue(_ verdict: TokenVerdict) {
        script.tokenVerdicts.append(verdict)
    }

    /// Queues what the merchant does in the next Apple terms sheet.
    public func enqueue(_ response: TermsResponse) {
        script.termsResponses.append(response)
    }

    /// Raises `notice` at the next operation of `stage`.
    public func inject(_ notice: ReaderNotice, at stage: ReaderNotice.Stage) {
        script.notices[stage, default: []].append(notice)
    }

    // MARK: App lifecycle

    /// The app went to the background: the connection closes, a running read ends with
    /// ``ReaderOutcome/background``, and a running prepare fails with ``ReaderError/appInBackground``.
    ///
    /// ``percentage`` keeps its last value (TapOnMobile seed); call ``prepare(token:)`` again
    /// after ``appWillEnterForeground()``.
    public func appDidEnterBackground() {
        if machine.enterBackground() {
            interruption = .background
        }
    }

    /// The app is back in the foreground; the reader stays unprepared until the next prepare.
    public func appWillEnterForeground() {
        machine.enterForeground()
    }

    /// The merchant closes the card screen: a running read or PIN step ends with
    /// ``ReaderOutcome/cancelled``. Does nothing when no read runs.
    public func cancelRead() {
        if machine.state == .reading, interruption == nil {
            interruption = .cancelled
        }
    }

    // MARK: Shared helpers

    /// Delivers a notice to the app and records it.
    func deliver(_ notice: ReaderNotice) {
        receivedNotices.append(notice)
        onReaderNotice(notice)
    }

    /// Takes the notices scripted for `stage`.
    func takeNotices(at stage: ReaderNotice.Stage) -> [ReaderNotice] {
        defer { script.notices[stage] = [] }
        return script.notices[stage] ?? []
    }

    /// Waits `seconds` on the clock in short slices, and stops early if the running operation
    /// is interrupted.
    ///
    /// - Returns: The interruption, or `nil` when the whole time passed.
    func pause(_ seconds: TimeInterval) async -> ReaderOutcome? {
        var remaining = seconds
        while remaining > 0 {
            if let interruption { return interruption }
            let slice = min(remaining, Self.pauseSlice)
            await clock.sleep(for: slice)
            remaining -= slice
        }
        return interruption
    }

    /// The longest single wait, so a cancel or a background is noticed within it.
    static let pauseSlice: TimeInterval = 0.25

    /// `date` plus the host offset, in milliseconds since 1970: a payload's `readAt`.
    func hostMilliseconds(_ date: Date, offset: TimeInterval) -> Int64 {
        Int64(((date.timeIntervalSince1970 + offset) * 1000).rounded())
    }
}
