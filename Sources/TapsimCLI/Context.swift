import CommandLineSupport
import DeviceTransport
import Foundation
import TapOnMobileSandbox

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One invocation's device: the SDK configured for the region's host and the device directory,
/// what tapsim keeps beside it (``TapsimState``), and where human lines go.
///
/// ```swift
/// let context = try Context(globals: globals)
/// try await context.initialize()
/// try await context.resumeSession()        // logged in by an earlier `tapsim login`
/// ```
final class Context: @unchecked Sendable {
    let globals: GlobalOptions
    let endpoints: SandboxEndpoints
    /// Why `endpoints.json` was not read, on a dry run that went on without it (nil: it was read).
    let endpointsProblem: String?
    /// The region id as `endpoints.json` spells it (`EU`, `MBANK` …).
    let region: String
    let environment: Environments
    let host: URL
    let deviceDirectory: URL
    let sdk: TapOnMobile
    /// The test card the next card screen gets (`pay --card`), read by the SDK's card script provider.
    let card = CardChoice()
    /// What QR and BLIK payments and refunds poll on: real time, until tapsim decided the order at
    /// the wallet itself; every `pollPace` seconds unless `--real-time`.
    let customerClock: CustomerClock
    /// How often tapsim polls an APM transaction without `--real-time` (the SDK's `apmPulling` is 5 s).
    static let pollPace: TimeInterval = 0.25
    private(set) var state: TapsimState
    private var loadedSandboxData: SandboxData?

    /// No human lines: under `--json` the object says it all, under `--field` only the field is printed.
    var json: Bool { globals.json || globals.field != nil }
    private var warnedAboutFlavour = false

    init(globals: GlobalOptions, deviceDirectory explicitDevice: URL? = nil) throws(UsageError) {
        self.globals = globals
        do {
            endpoints = try SandboxEndpoints.load(explicit: globals.endpoints, relativeTo: globals.directory)
            endpointsProblem = nil
        } catch where globals.dryRun {
            // A dry run contacts nothing and needs no running sandbox: it shows what the SDK would
            // use without one, `sandbox up`'s default ports, and why the file was not read.
            endpoints = Self.defaultLayout(file: globals.url(globals.endpoints ?? EndpointsFile.defaultPath))
            endpointsProblem = error.description
        }
        region = try endpoints.region(globals.region ?? "EU")
        guard let environment = Environments(region: region, flavour: globals.flavour) else {
            throw UsageError("the SDK has no environment for region \(region) and flavour \(globals.flavour)")
        }
        self.environment = environment
        host = try endpoints.hostURL(for: region)
        deviceDirectory =
            explicitDevice ?? globals.device.map(globals.url) ?? endpoints.deviceDirectory(for: region)
        state = TapsimState.load(from: deviceDirectory)
        let card = self.card
        let customerClock = CustomerClock(pace: globals.realTime ? nil : Self.pollPace)
        self.customerClock = customerClock
        let configuration = SandboxConfiguration(
            endpointOverrides: [region: host], endpointsFile: endpoints.file, deviceDirectory: deviceDirectory,
            clock: globals.realTime ? LiveReaderClock() : SkippingClock(),
            cardScripts: { _ in card.current.map { .tap($0, pin: card.pin, pinOnRequest: card.pin) } },
            apmClock: customerClock)
        sdk = TapOnMobile(configuration: configuration)
    }

    /// What `sandbox up` on its default ports would write: the SDK's own default endpoints.
    static func defaultLayout(file: URL) -> SandboxEndpoints {
        let defaults = SandboxConfiguration(endpointsFile: nil)
        var environments: [String: String] = [:]
        for region in Environments.regions + Environments.vendorRegionOffsets.keys {
            if let url = try? defaults.endpoint(for: region) { environments[region] = url.absoluteString }
        }
        return SandboxEndpoints(file: file, contents: EndpointsFile(portal: nil, wallet: nil, webhooks: nil, environments: environments))
    }

    /// `sandbox-data/`, found on first use (only `register quick` and `--card` need it).
    func sandboxData() throws(UsageError) -> SandboxData {
        if let loadedSandboxData { return loadedSandboxData }
        let data = try SandboxData.locate(explicit: globals.sandboxDataPath)
        loadedSandboxData = data
        return data
    }

    /// The run's output, taken when the context is made: the SDK may call back on its own threads.
    private let streams = Output.streams

    /// A line for people (nothing under `--json`: the JSON object says it all).
    func say(_ line: String) {
        if !json { streams.output(line + "\n") }
    }

    // MARK: - SDK set-up

    /// `initialization(environment:)`: the host must answer as the region. A host that runs
    /// another flavour than `--flavour` asks for is a warning on standard error: it still
    /// answers, with its own flavour's session length and hostnames.
    func initialize() async throws(TapOnMobileError) {
        _ = try await sdk.initialization(environment: environment, appVersion: "tapsim").value()
        if let hostFlavour = sdk.hostFlavour, hostFlavour != environment.flavour, !warnedAboutFlavour {
            warnedAboutFlavour = true
            streams.error(
                "tapsim: warning: --flavour \(environment.flavour) asks for \(environment.rawValue), but the \(region) host at "
                    + "\(host.absoluteString) runs the \(hostFlavour) flavour: it answers as \(hostFlavour) (session length, "
                    + "hostnames); start 'sandbox up --flavour \(environment.flavour)' for \(environment.flavour).\n")
        }
    }

    /// Picks the test card the customer taps at the next card screen and the PIN they type:
    /// without a name, the region's domestic card (``CardCatalogue/defaultCard(forCountry:pin:)``),
    /// an online-PIN one when a PIN entry is scripted.
    func useCard(named name: String?, pinEntry: PinEntry? = nil) throws(UsageError) {
        let card = try sandboxData().card(named: name, country: environment.homeCountry, pin: pinEntry != nil)
        self.card.set(card, pin: pinEntry ?? .correct)
    }

    /// Names of test cards issued in the region's home country without PIN or flags (no DCC offer,
    /// no decline), then `visa` and `mc`.
    func domesticCards() throws(UsageError) -> [String] {
        let file = try sandboxData().directory.appendingPathComponent("cards.json")
        let catalogue = try? CardCatalogue.load(from: file)
        let domestic = (catalogue?.cards ?? []).filter {
            $0.country == environment.homeCountry && $0.cvm == .noCVM && $0.flags.isEmpty
        }
        var names = domestic.map(\.name)
        for fallback in ["visa", "mc"] where !names.contains(fallback) { names.append(fallback) }
        return names
    }

    // MARK: - What tapsim keeps between invocations

    func updateState(_ change: (inout TapsimState) -> Void) {
        change(&state)
        try? state.save(to: deviceDirectory)
    }

    /// Remembers a fresh login: its terminal and when it ends (the SDK keeps the session itself).
    func rememberLogin(terminalId: String, expiresAtUnix: Double) {
        updateState {
            $0.session = .init(terminalId: terminalId, expiresAtUnix: expiresAtUnix)
            if $0.prepared?.terminalId != terminalId { $0.prepared = nil }
        }
    }

    /// Forgets the session and the prepared reader (logout, registration, unregister).
    func forgetSession() {
        updateState {
            $0.session = nil
            $0.prepared = nil
        }
    }

    /// Checks the session an earlier `tapsim login` left: the SDK took it up again at initialization
    /// (it keeps its token in the device folder), and the host says whether it still lives.
    ///
    /// Without a remembered login this does nothing, and the SDK answers the command itself
    /// (`session.sessionError`: not logged in).
    ///
    /// - Throws: `session.sessionExpired` once the host ended the session.
    func resumeSession() async throws(TapOnMobileError) {
        guard state.session != nil else { return }
        switch await sdk.getSessionExpiration() {
        case .success:
            return
        case .failure(let error):
            forgetSession()
            throw error
        }
    }

    /// Prepares the reader again when `tapsim prepare` prepared it for this terminal before.
    func resumeReader() async throws(TapOnMobileError) {
        guard let prepared = state.prepared, prepared.terminalId == state.session?.terminalId else { return }
        switch await sdk.prepareDeviceAndWait() {
        case .success: break
        case .failure(let error):
            updateState { $0.prepared = nil }
            throw error
        }
    }

    /// The host's clock (`GET /_sandbox/clock`), which `POST /_sandbox/clock` may have moved ahead
    /// of this machine's; nil when the host does not say.
    func hostTime() async -> Double? {
        guard case .answer(200, let data) = await DeviceTransport(timeout: 5, userAgent: "tapsim").send("GET", host.appendingPathComponent("/_sandbox/clock")),
            let clock = try? JSONDecoder().decode(SandboxClockState.self, from: data)
        else { return nil }
        return clock.nowUnix ?? Format.parseTime(clock.now)
    }

    /// The wallet simulator's customer API, from `endpoints.json` (`qr pay --approve` …).
    func walletCustomer() throws(UsageError) -> WalletCustomer {
        guard let text = endpoints.contents.wallet, let url = URL(string: text) else {
            throw UsageError("\(endpoints.file.path) names no wallet: start 'sandbox up' (it runs the wallet simulator)")
        }
        return WalletCustomer(base: url)
    }

    /// The terminal's currency, for commands given no `--currency`.
    func terminalCurrency() async throws(TapOnMobileError) -> String {
        try await sdk.getTerminalInfo().value().currency.code
    }
}

/// The card the simulated customer taps and the PIN they type, shared with the SDK's card script provider.
final class CardChoice: @unchecked Sendable {
    private let lock = NSLock()
    private var card: TestCard?
    private var pinEntry = PinEntry.correct

    var current: TestCard? {
        lock.lock()
        defer { lock.unlock() }
        return card
    }

    /// What the customer types when the reader asks for a PIN (`--pin-entry`).
    var pin: PinEntry {
        lock.lock()
        defer { lock.unlock() }
        return pinEntry
    }

    func set(_ card: TestCard, pin: PinEntry = .correct) {
        lock.lock()
        defer { lock.unlock() }
        self.card = card
        pinEntry = pin
    }
}
