// The UIKit stand-ins (`UIViewController`, `UIColor` … off Apple platforms) come with the SDK, as UIKit does on iOS.
@_exported import DeviceUI
import LockedValue
import DeviceTransport
import Foundation
import SandboxWire
import TapOnMobileSandbox

/// PagBank's Tap On (seed 004), over the sandbox's PagBank host and simulated reader.
///
/// The seed's calls with its names and labels: `TapOnPayment(_:)`, `delegate`, `prepareTap()`,
/// `activate(_:_:)`, `payment(_:_:_:)`, `cancelPayment(_:_:_:)`, `logout()`, `isActive()`. Each
/// operation runs in the background and ends with one call of the delegate, on the main actor;
/// operations run one after the other in the order they were asked for.
///
/// Underneath it is a TapOnMobile device on the PagBank host (``TapOnPartnerSandbox``): the
/// activation buys a registration token with the partner's `appKey` (`POST
/// /terminal/v1/partner-activations`), registers with it and logs in; a sale is the terminal API's
/// sale in BRL; a cancel is a reversal that names the sale's amount, or (once the sale can no
/// longer be reversed) a refund of the whole amount. Sales show in the host's history, the portal
/// and the webhooks like any other.
@MainActor
public final class TapOnPayment {
    public weak var delegate: (any TapOnPartnerDelegate)?
    public weak var dataSource: (any TapOnPaymentDataSource)?

    let configuration: TapOnPartnerConfiguration
    let sandbox: TapOnPartnerSandbox
    let sdk: TapOnMobile
    private let serial = SerialWork()
    private var active: Bool

    public init(_ configuration: TapOnPartnerConfiguration) {
        self.configuration = configuration
        sandbox = TapOnPartnerSandbox.current
        sdk = TapOnMobile(configuration: sandbox.device)
        active = ActivationFile(directory: sandbox.device.deviceDirectory).isActive
    }

    /// Gets Tap On ready in the background: the SDK initialized and, when the device is activated,
    /// logged in with its reader prepared, so the first sale starts at once.
    public func prepareTap() {
        run { engine in
            guard case .success = await engine.initialize(), await self.isActiveNow() else { return }
            _ = await engine.ensureSession()
        }
    }

    /// Tap On's activation screens: the seller signs in for the partner app (the sandbox plays them
    /// with ``TapOnPartnerSandbox/sellerId``). Ends with `activateStatusEvent(successfully:)`.
    public func activate(_ presentStyle: PresentStyle, _ colors: (any UIColorPartner)? = nil) {
        let appKey = configuration.appKey
        run { engine in
            let activated = await engine.activate(appKey: appKey)
            await MainActor.run {
                if activated { self.setActive(true) }
                self.delegate?.activateStatusEvent(successfully: activated)
            }
        }
    }

    /// A sale of `payment.amount` reais: the tap screen, then the host. Ends with
    /// `paymentStatusEvent(_:)`: `.approved` with the result, or `.failure` (not activated, an
    /// amount with more than two decimals or outside R$ 1,00 … R$ 10.000,00, a declined card …).
    public func payment(_ payment: TapOnPaymentModel, _ presentStyle: PresentStyle, _ colors: (any UIColorPartner)? = nil) {
        let amount = payment.amount
        run { engine in
            let event: TapOnPartnerPaymentEvent
            if await !self.isActiveNow() {
                event = .failure(.notActivated)
            } else {
                event = await engine.sale(reais: amount)
            }
            await MainActor.run { self.delegate?.paymentStatusEvent(event) }
        }
    }

    /// A cancel (estorno) of the sale `cancel.transactionCode`, whose whole amount `cancel.amount`
    /// names in centavos (`"1000"`). Ends with `cancelStatusEvent(_:)`.
    public func cancelPayment(_ cancel: TapOnCancelPaymentModel, _ presentStyle: PresentStyle, _ colors: (any UIColorPartner)? = nil) {
        let (code, amount, userRef) = (cancel.transactionCode, cancel.amount, cancel.userRef)
        run { engine in
            let event: TapOnPartnerCancelEvent
            if await !self.isActiveNow() {
                event = .failure(.notActivated)
            } else {
                event = await engine.cancel(transactionCode: code, amount: amount, userRef: userRef)
            }
            await MainActor.run { self.delegate?.cancelStatusEvent(event) }
        }
    }

    /// Ends Tap On on this device with the app's own logout: at once `isActive()` is false; the
    /// session ends and the terminal is freed in the background.
    public func logout() {
        setActive(false)
        run { engine in await engine.deactivate() }
    }

    /// Whether Tap On is activated on this device (it stays so across launches until `logout()`).
    public func isActive() -> Bool { active }

    // MARK: - Sandbox (not in the seed)

    /// Waits until every operation asked for so far has ended (its delegate call made): for tests
    /// and `tapsim`, which cannot wait on a delegate.
    public func waitUntilIdle() async {
        await serial.waitForAll()
    }

    /// Whether Tap On is active when a queued operation starts (an `activate` asked for just before
    /// it has ended by then), not when it was asked for.
    private func isActiveNow() -> Bool { active }

    private func setActive(_ value: Bool) {
        active = value
        ActivationFile(directory: sandbox.device.deviceDirectory).isActive = value
    }

    private func run(_ work: @escaping @Sendable (Engine) async -> Void) {
        let engine = Engine(sdk: sdk, sandbox: sandbox)
        serial.enqueue { await work(engine) }
    }
}

/// Work that runs one piece at a time, in the order it was given.
final class SerialWork: Sendable {
    private let last = LockedValueBox<Task<Void, Never>?>(nil)

    func enqueue(_ work: @escaping @Sendable () async -> Void) {
        last.withLockedValue { last in
            let previous = last
            last = Task {
                await previous?.value
                await work()
            }
        }
    }

    func waitForAll() async {
        while true {
            let current = last.withLockedValue { $0 }
            await current?.value
            if last.withLockedValue({ $0 }) == current { return }
        }
    }
}

/// Whether the device is activated, kept in the device folder (`tapon.json`, mode 0600).
struct ActivationFile {
    let directory: URL

    private var file: URL { directory.appendingPathComponent("tapon.json") }

    private struct Contents: Codable { var active: Bool }

    var isActive: Bool {
        get {
            FileManager.default.contents(atPath: file.path).flatMap { try? JSONDecoder().decode(Contents.self, from: $0) }?.active ?? false
        }
        nonmutating set {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try? JSONEncoder().encode(Contents(active: newValue)).write(to: file, options: .atomic)
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        }
    }
}
