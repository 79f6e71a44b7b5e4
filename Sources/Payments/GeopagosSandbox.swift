import Foundation
import SandboxWire
import SimulatedReader
import Synchronization

/// What the Payments SDK needs to know that a real iPhone would not (not in the seed): where the
/// Geopagos host listens when the configuration does not say, and what the simulated phone, Apple
/// and the customer do.
///
/// An installer takes the set-up current when it is created; until ``current`` is set, `sandbox up`
/// on this machine, a supported iPhone, and nobody tapping.
///
/// ```swift
/// var sandbox = GeopagosSandbox()
/// sandbox.clock = ManualReaderClock()
/// sandbox.cardScripts = { _ in .tap(visaAR) }
/// GeopagosSandbox.current = sandbox
/// let installer = TapToPayReaderInstaller(tokenProvider: …, onAccountLinkingRequired: …, onReaderNotice: …)
/// ```
public struct GeopagosSandbox: Sendable {
    /// The phone; an iPhone 14 Pro on iOS 18.5 by default. Tap to Pay needs iOS 16.7 or later (seed).
    public var device: SimulatedReader.Device
    /// The app installation's id, as the host registers the device.
    public var deviceId: String
    /// The reader's clock: the card screen's 40 s, the card data's 120 s. ``ManualReaderClock``
    /// makes them take no time.
    public var clock: any ReaderClock
    /// What Apple does around the reader (token verdicts queued before the host's, notices, terms,
    /// queued cards, education failures, preparation time).
    public var readerScript: ReaderScript
    /// What the customer does at each card screen, from the transaction; `nil` (or `nil` from it)
    /// leaves it to the reader's queue.
    public var cardScripts: (@Sendable (CardRequest) -> CardScript?)?
    /// Whether the merchant accepted Apple's terms on this phone before.
    public var accountLinked: Bool
    /// Seconds an HTTP request to the host may take.
    public var requestTimeout: TimeInterval
    /// Where the SDK calls the app: a transaction listener's states, the installer's completions
    /// and reader notices. The main queue on Apple platforms, as the Payments SDK calls a UI app
    /// (an app built with main-actor isolation by default relies on it); `nil` elsewhere: the SDK's
    /// own task, since a command-line tool or a test may keep its main thread busy. Calls keep
    /// their order on either.
    public var callbackQueue: DispatchQueue?

    /// The card screen being shown: the transaction's type and amount in minor units.
    public struct CardRequest: Sendable, Equatable {
        public let type: TransactionType
        public let amount: Int
        public let currency: String
    }

    public init() {
        device = Self.defaultDevice
        deviceId = "geopagos-" + UUID().uuidString.lowercased()
        clock = LiveReaderClock()
        readerScript = ReaderScript()
        cardScripts = nil
        accountLinked = false
        requestTimeout = 15
        callbackQueue = AppCallbacks.platformQueue
    }

    /// An iPhone 14 Pro on iOS 18.5.
    public static let defaultDevice = SimulatedReader.Device(model: "iPhone15,2", osVersion: "18.5")

    private static let setUp = Mutex(GeopagosSandbox())

    /// The set-up the next installer takes.
    public static var current: GeopagosSandbox {
        get { setUp.withLock { $0 } }
        set { setUp.withLock { $0 = newValue } }
    }
}
