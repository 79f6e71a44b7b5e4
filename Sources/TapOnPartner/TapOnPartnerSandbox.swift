import LockedValue
import Foundation
import SimulatedReader
import TapOnMobileSandbox

/// What Tap On needs to know that a real iPhone would not (not in the seed): the device underneath
/// (the PagBank host's terminal API, the device folder, the simulated reader, the customer's card,
/// the clock) and the seller the activation screens sign in as.
///
/// Set ``current`` before the app makes its `TapOnPayment`; each `TapOnPayment` reads it once.
///
/// ```swift
/// var sandbox = TapOnPartnerSandbox()
/// sandbox.device.endpointOverrides["PAGBANK"] = URL(string: "http://127.0.0.1:8113")!
/// sandbox.device.cardScripts = { _ in .tap(visaBR) }
/// TapOnPartnerSandbox.current = sandbox
/// ```
public struct TapOnPartnerSandbox: Sendable {
    /// The TapOnMobile device Tap On runs on (every host has the terminal API), in its own folder
    /// (`devices/PAGBANK-tapon` in ``DeviceStorage/root`` by default), located in Brazil.
    public var device: SandboxConfiguration
    /// The seller (a merchant id of the partner, `PAGBANK-M01` …) the activation signs in as; nil:
    /// the partner's first.
    public var sellerId: String?
    /// The environment of the PagBank host; `sandboxPAGBANK` by default.
    public var environment: Environments

    public init() {
        device = SandboxConfiguration(deviceDirectory: DeviceStorage.folder("devices/PAGBANK-tapon"), location: .authorized(country: "BR", fixAfter: 0))
        sellerId = nil
        environment = .sandboxPAGBANK
    }

    private static let stored = LockedValueBox(TapOnPartnerSandbox())

    /// The set-up the next `TapOnPayment` takes.
    public static var current: TapOnPartnerSandbox {
        get { stored.withLockedValue { $0 } }
        set { stored.withLockedValue { $0 = newValue } }
    }
}
