import Foundation
import SandboxWire
import SimulatedReader

/// What the MONEI device library needs to know that a real iPhone would not (not in the seed):
/// where the MONEI host listens and what the simulated phone, Apple, the customer and the GPS do.
///
/// ``TapToPay`` is one app on one phone, so its set-up is global: ``launch(_:)`` starts the app
/// afresh with a configuration (the token and the prepared reader are gone, as after a real
/// launch). Until then the app runs on ``init()``'s defaults: `sandbox up` on this machine, a
/// supported iPhone, location granted with a fix in Spain at once, and nobody tapping.
///
/// ```swift
/// var sandbox = TapToPaySandbox()
/// sandbox.endpoint = URL(string: "http://127.0.0.1:8112")!
/// sandbox.clock = ManualReaderClock()
/// sandbox.cardScripts = { _ in .tap(visaES) }
/// TapToPaySandbox.launch(sandbox)
/// try await TapToPay.prepare(token: token)
/// ```
public struct TapToPaySandbox: Sendable {
    /// The MONEI host's base URL; wins over ``endpointsFile``.
    public var endpoint: URL?
    /// The `endpoints.json` that `sandbox up` writes (its `MONEI` entry), read at each launch when
    /// it exists. Default: ``DeviceStorage/endpointsFile``. Without an
    /// ``endpoint`` and without the file, `http://127.0.0.1:8112`.
    public var endpointsFile: URL?
    /// The phone; an iPhone 14 Pro on iOS 18.5 by default, judged by MONEI's rule (iPhone XS or
    /// newer, iOS 18.5 or later).
    public var device: Device
    /// The reader's clock: the card screen's 40 s, the location fix's 15 s. ``ManualReaderClock``
    /// makes them take no time.
    public var clock: any ReaderClock
    /// What Apple does around the reader (token verdicts, notices, queued cards, education failures,
    /// preparation time).
    public var readerScript: ReaderScript
    /// Picks what the customer does at each card screen, from the amount in cents; `nil` (or a
    /// provider that answers `nil`) leaves it to the reader's queue (``Reader/present(_:)``).
    public var cardScripts: (@Sendable (Int) -> CardScript?)?
    /// The user and the GPS; `nil` means permission granted and a fix in Spain at once.
    public var location: LocationScript?
    /// Whether the merchant's account accepted Apple's terms on this phone before; when not, the
    /// first `acceptPayment` shows them.
    public var accountLinked: Bool
    /// What the merchant does in each Apple terms sheet, in order; empty means accept.
    public var termsResponses: [TermsResponse]
    /// Seconds an HTTP request to the host may take.
    public var requestTimeout: TimeInterval

    /// A configuration; every value has a default that suits `sandbox up` on this machine.
    public init() {
        endpoint = nil
        endpointsFile = DeviceStorage.endpointsFile
        device = Self.defaultDevice
        clock = LiveReaderClock()
        readerScript = ReaderScript()
        cardScripts = nil
        location = nil
        accountLinked = false
        termsResponses = []
        requestTimeout = 15
    }

    /// An iPhone 14 Pro on iOS 18.5: supported by MONEI's rule.
    public static let defaultDevice = Device(model: "iPhone15,2", osVersion: "18.5")

    /// The MONEI region's id in `environments.json` and `endpoints.json`.
    public static let region = "MONEI"

    /// Where `sandbox up` puts the MONEI host when no `endpoints.json` says otherwise.
    public static let defaultEndpoint = URL(string: "http://127.0.0.1:8112")!

    /// The MONEI host's base URL: ``endpoint``, else `endpointsFile`'s `MONEI` entry when that
    /// file exists, else ``defaultEndpoint``; `nil` when the file exists and names no MONEI host.
    public func resolvedEndpoint() -> URL? {
        if let endpoint { return endpoint }
        if let file = endpointsFile, FileManager.default.fileExists(atPath: file.path) {
            guard let decoded = try? EndpointsFile.load(from: file) else { return nil }
            return decoded.environments[Self.region].flatMap { URL(string: $0) }
        }
        return Self.defaultEndpoint
    }
}

@MainActor
extension TapToPaySandbox {
    /// Starts the app afresh with `configuration`, as a new launch: the token, the prepared reader
    /// and a running payment's state are forgotten.
    public static func launch(_ configuration: TapToPaySandbox) {
        TapToPay.app = TapToPayApp(configuration)
    }

    /// The current configuration.
    public static var configuration: TapToPaySandbox { TapToPay.app.configuration }

    /// The simulated reader, for scripting what Apple and the customer do (``Reader/present(_:)``).
    public static var reader: Reader { TapToPay.app.reader }

    /// The app goes to the background: the reader's connection closes (a running card read ends
    /// with ``TapToPayError/cancelled``).
    public static func appDidEnterBackground() async {
        await TapToPay.app.reader.appDidEnterBackground()
    }

    /// The app is back in the foreground: the SDK prepares the reader again by itself, with the
    /// token of the last `prepare(token:)`, as the seed says ("You do not need to do this").
    public static func appWillEnterForeground() async {
        await TapToPay.app.enterForeground()
    }
}
