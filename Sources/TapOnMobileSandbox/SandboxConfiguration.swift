import Foundation
import SandboxWire
import SimulatedReader

/// What a device needs to know that a real phone would not: where the sandbox hosts listen,
/// where the device keeps its state, and the simulated reader (the phone, Apple's screens, the
/// customer's card, the clock, the GPS). Not in the seed.
///
/// ```swift
/// var configuration = SandboxConfiguration(deviceDirectory: URL(fileURLWithPath: "/tmp/phone-1"))
/// configuration.endpointOverrides["EU"] = URL(string: "http://127.0.0.1:18100")!
/// configuration.clock = ManualReaderClock()
/// configuration.cardScripts = { request in .tap(visa) }
/// let device = TapOnMobile(configuration: configuration)
/// ```
public struct SandboxConfiguration: Sendable {
    /// What the card screen is shown for, so a ``CardScriptProvider`` can pick the card.
    public struct CardRequest: Sendable, Equatable {
        /// Which SDK call shows the card screen.
        public enum Operation: String, Sendable, Equatable {
            case payment, refund, cardReaderTest
        }

        public var operation: Operation
        /// Minor units; 0 for a card reader test.
        public var amount: Int
        public var currency: String

        public init(operation: Operation, amount: Int, currency: String) {
            self.operation = operation
            self.amount = amount
            self.currency = currency
        }
    }

    /// Decides what the customer does at each card screen; `nil` leaves the reader's own
    /// queue (``ReaderScript/cards``, ``Reader/present(_:)``) to decide.
    public typealias CardScriptProvider = @Sendable (CardRequest) -> CardScript?

    /// Region id → base URL; wins over everything else.
    public var endpointOverrides: [String: URL]
    /// The `endpoints.json` that `sandbox up` writes; read at each initialization when it exists.
    /// Default: ``DeviceStorage/endpointsFile`` (`$TAPSANDBOX_ENDPOINTS`, else `.sandbox/endpoints.json`
    /// in the working directory).
    public var endpointsFile: URL?
    /// Without an override or a file, region *i* of ``Environments/regions`` is at
    /// `http://127.0.0.1:(basePort + i)`.
    public var basePort: Int

    /// Where the device keeps its state (`device.json`: installation id, registration,
    /// support number, last transaction, language). Default: `device` in ``DeviceStorage/root``
    /// (Application Support on Apple platforms, `.sandbox` of the working directory on Linux).
    public var deviceDirectory: URL

    /// The phone, judged by ``supportRequirements`` for `isTapToPaySupported()`.
    public var device: Device
    public var supportRequirements: DeviceSupport.Requirements
    /// The reader's clock; ``ManualReaderClock`` makes the 40 s card screen take no time.
    public var clock: any ReaderClock
    /// What Apple and the merchant do (token verdicts, terms sheets, notices, queued cards).
    public var readerScript: ReaderScript
    /// Picks the customer's card for each card screen.
    public var cardScripts: CardScriptProvider?
    /// The user and the GPS; `nil` means permission granted and a fix at once in the
    /// environment's home country (``Environments/homeCountry``).
    public var location: LocationScript?
    /// Whether the merchant accepted Apple's terms on this phone before.
    public var accountLinked: Bool
    /// The app's answer when the reader asks to show Apple's terms.
    public var accountLinking: Reader.AccountLinkingHandler
    /// Receives the reader's notices.
    public var onReaderNotice: Reader.NoticeHandler
    /// Is shown the screens the SDK draws on a `container` (see ``SDKScreen``); a screen is
    /// closed when this returns. By default each closes at once.
    public var onSDKScreen: @Sendable (SDKScreen) async -> Void
    /// Seconds an HTTP request may take.
    public var requestTimeout: TimeInterval
    /// Makes the installation id and idempotency keys; random UUIDs by default.
    public var makeIdentifier: @Sendable () -> String
    /// The wallet brand a QR payment uses (the choice a customer makes on the SDK's brand screen,
    /// which the sandbox does not draw); `nil`: the terminal's first active `apmConfig` brand.
    public var qrBrand: APMPaymentData.APMBrand?
    /// The clock QR payments poll on (`apmPulling`) and time out on (`apmTimeout`); `nil`: ``clock``.
    /// A separate one lets a command-line device wait for a real customer while its card reader
    /// skips its waits, and a test step the polls while the reader's clock runs by itself.
    public var apmClock: (any ReaderClock)?
    /// The BLIK code a customer types on the SDK's own code screen, which the sandbox does not
    /// draw: used by `doBlikPayment` when a `container` is given (and `payCode` is then nil).
    public var blikPayCode: String?
    /// The verification code typed with a 9-digit ``blikPayCode``.
    public var blikVerificationCode: String?
    /// Where ``PrepareDeviceListener`` calls reach the app: the main queue on Apple platforms, as the
    /// SDK calls a UI app (an app built with main-actor isolation by default relies on it); `nil` on
    /// Linux, the SDK's own task, since a command-line tool or a test may keep its main thread busy.
    /// The publishers and streams deliver on the SDK's task, as the seed's `.receive(on:)` expects.
    public var callbackQueue: DispatchQueue?

    /// A configuration; every argument has a default that suits `sandbox up` on this machine.
    public init(
        endpointOverrides: [String: URL] = [:],
        endpointsFile: URL? = DeviceStorage.endpointsFile,
        basePort: Int = 8100,
        deviceDirectory: URL = DeviceStorage.folder("device"),
        device: Device = .standard,
        supportRequirements: DeviceSupport.Requirements = .standard,
        clock: any ReaderClock = LiveReaderClock(),
        readerScript: ReaderScript = ReaderScript(),
        cardScripts: CardScriptProvider? = nil,
        location: LocationScript? = nil,
        accountLinked: Bool = false,
        accountLinking: @escaping Reader.AccountLinkingHandler = { _ in .confirm },
        onReaderNotice: @escaping Reader.NoticeHandler = { _ in },
        requestTimeout: TimeInterval = 15,
        makeIdentifier: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() },
        onSDKScreen: @escaping @Sendable (SDKScreen) async -> Void = { _ in },
        qrBrand: APMPaymentData.APMBrand? = nil,
        apmClock: (any ReaderClock)? = nil,
        blikPayCode: String? = nil,
        blikVerificationCode: String? = nil,
        callbackQueue: DispatchQueue? = AppCallbacks.platformQueue
    ) {
        self.endpointOverrides = endpointOverrides
        self.endpointsFile = endpointsFile
        self.basePort = basePort
        self.deviceDirectory = deviceDirectory
        self.device = device
        self.supportRequirements = supportRequirements
        self.clock = clock
        self.readerScript = readerScript
        self.cardScripts = cardScripts
        self.location = location
        self.accountLinked = accountLinked
        self.accountLinking = accountLinking
        self.onReaderNotice = onReaderNotice
        self.requestTimeout = requestTimeout
        self.makeIdentifier = makeIdentifier
        self.onSDKScreen = onSDKScreen
        self.qrBrand = qrBrand
        self.apmClock = apmClock
        self.blikPayCode = blikPayCode
        self.blikVerificationCode = blikVerificationCode
        self.callbackQueue = callbackQueue
    }

    /// The base URL of a region's host: the override, else `endpointsFile`'s entry when that
    /// file exists, else the default port.
    ///
    /// - Parameter region: A region id of ``Environments/regions``.
    /// - Returns: The URL, or `nil` for a region the sandbox does not know.
    /// - Throws: ``TapOnMobileError/initialization(_:)`` when `endpointsFile` exists but cannot be read.
    public func endpoint(for region: String) throws(TapOnMobileError) -> URL? {
        if let url = endpointOverrides[region] { return url }
        if let file = endpointsFile, FileManager.default.fileExists(atPath: file.path) {
            guard let decoded = try? EndpointsFile.load(from: file) else {
                throw .initialization(
                    InitializationError(.unknownEnvironment, code: "invalid_endpoints_file",
                                        message: "\(file.path) is not an endpoints.json with an \"environments\" object."))
            }
            // The file names every host `sandbox up` runs; a region it lacks is not running.
            return decoded.environments[region].flatMap { URL(string: $0) }
        }
        guard let offset = Environments.regions.firstIndex(of: region) ?? Environments.vendorRegionOffsets[region] else { return nil }
        return URL(string: "http://127.0.0.1:\(basePort + offset)")
    }
}
