import HostRules
import HostStorage
import SandboxTime
import Foundation
import SandboxCore
import SandboxCrypto
import SandboxHTTP
import SandboxHTTPClient
import SandboxStore

/// The acquirer backend of one documented environment (`EU`, `ANZ`, …) in one flavour.
///
/// It owns one SQLite database under the data directory, named after its region, and refuses
/// to open a database that another region created (two hosts must never share state).
///
/// ```swift
/// let host = try EnvironmentHost.start(configuration: .init(region: eu, flavour: .sandbox, …))
/// print(host.url)   // http://127.0.0.1:8100
/// ```
public final class EnvironmentHost: RunningService, Responder {
    public struct Configuration: Sendable {
        public var region: Region
        public var flavour: Flavour
        /// The region's merchants, terminals and back-office key (sandbox-data/merchants.json).
        public var fixtures: RegionFixtures
        /// Reader key, magic amounts, FX rates and the issuer's cards.
        public var payments: PaymentData
        public var server: ServerConfiguration
        /// Folder of the host's database (`.sandbox/` by default).
        public var dataDirectory: URL
        /// A PostgreSQL database (`postgres://…`) instead of the SQLite file in ``dataDirectory``:
        /// the region's tables live in a schema named for it (`eu`), and every host started on the
        /// same URL for the same region is a replica sharing its state.
        public var database: String?
        /// Replicas: how long one's claim on a webhook delivery lasts before another takes it over
        /// (real time; longer than a delivery's 15 s, else a slow receiver gets it twice).
        public var webhookLease: Duration = .seconds(60)
        /// `openapi/environment-host.yaml`.
        public var openAPIFile: URL
        public var accessLog: AccessLog?
        public var clock: SandboxClock
        /// Real time, which the sandbox clock API never moves: webhook signatures are dated by it,
        /// because receivers check them against their own clocks.
        public var wallClock: any TimeSource
        /// Where codes, tokens and secrets get their randomness (tests pass a seeded source).
        public var random: any RandomSource
        /// Where a merchant's webhooks go when it named no endpoint (`sandbox up`: its inbox).
        public var webhookURL: (@Sendable (_ merchant: String) -> String?)?
        /// How webhook hosts become addresses, for the check of callback URLs and endpoints at input
        /// and at every delivery: the system's resolver (tests inject answers).
        public var resolver: PublicAddress.Resolver = PublicAddress.system
        /// Whether the host delivers webhooks by itself (tests turn it off to drive deliveries).
        public var dispatchesWebhooks: Bool
        /// The wallet simulator's base URL (`http://127.0.0.1:8110`), the QR wallet provider; nil:
        /// QR payments answer `apm_provider_unavailable`.
        public var walletURL: String?
        /// The region's secret of `sandbox-data/wallet.json`, which signs every request between
        /// the host and the wallet; nil: the host takes no notification.
        public var walletSecret: String?
        /// Folder of the named snapshots (`POST /_sandbox/snapshots`), which every service of a
        /// sandbox shares; nil: `<data-dir>/snapshots`.
        public var snapshotDirectory: URL?
        /// The stores of a MONEI region's accounts (`sandbox-data/monei.json`); nil: none (a MONEI
        /// host then refuses every POS token request).
        public var moneiStores: MoneiStores?

        public init(
            region: Region, flavour: Flavour, fixtures: RegionFixtures, payments: PaymentData, server: ServerConfiguration,
            dataDirectory: URL,
            openAPIFile: URL, accessLog: AccessLog? = nil, clock: SandboxClock = SandboxClock(), wallClock: any TimeSource = WallClock(),
            random: any RandomSource = LiveRandomSource(), webhookURL: (@Sendable (String) -> String?)? = nil,
            dispatchesWebhooks: Bool = true, walletURL: String? = nil, walletSecret: String? = nil
        ) {
            self.walletURL = walletURL
            self.walletSecret = walletSecret
            self.region = region
            self.flavour = flavour
            self.fixtures = fixtures
            self.payments = payments
            self.random = random
            self.webhookURL = webhookURL
            self.dispatchesWebhooks = dispatchesWebhooks
            self.server = server
            self.dataDirectory = dataDirectory
            self.openAPIFile = openAPIFile
            self.accessLog = accessLog
            self.clock = clock
            self.wallClock = wallClock
        }

        /// `<data-dir>/<region id in lower case>.sqlite`, e.g. `.sandbox/payone_de.sqlite`.
        public var databaseFile: URL { EnvironmentHost.databaseFile(region: region.id, in: dataDirectory) }

        /// Where this host keeps its part of each snapshot.
        public var snapshots: SnapshotShelf {
            SnapshotShelf(folder: snapshotDirectory ?? dataDirectory.appendingPathComponent("snapshots"), file: databaseFile.lastPathComponent)
        }
    }

    /// Where the host of `region` keeps its database in `directory`.
    public static func databaseFile(region: String, in directory: URL) -> URL {
        directory.appendingPathComponent(region.lowercased() + ".sqlite")
    }

    public let configuration: Configuration
    public let server: Server
    let store: Store
    /// The routes behind the journal and the faults, behind the restore gate.
    private let traffic: any Responder
    /// The last requests per surface (`GET /backoffice/v1/requests`).
    public let journal: RequestJournal
    /// The faults a tester set (`/_sandbox/faults`), in memory only (and in snapshots).
    public let faults: FaultPlan
    /// Closed while a snapshot is restored: no request sees the host half brought back.
    let gate = RequestGate()
    /// What replicas on one PostgreSQL database share beside the rows (clock, faults); nil on SQLite.
    let shared: SharedState?
    /// Delivers the webhook outbox.
    let dispatcher: Dispatcher
    /// Delivers the calls owed to the wallet and applies QR deadlines.
    let courier: WalletCourier
    /// The wallet provider's client.
    let wallet: WalletClient

    public var name: String { configuration.region.id }

    /// Opens (or creates) the database and builds the routes, without listening.
    public init(configuration: Configuration) throws {
        self.configuration = configuration
        if let database = configuration.database {
            store = try Store.open(
                postgres: database, schema: configuration.region.id.lowercased(), migrations: HostSchema.postgresMigrations)
        } else {
            store = try Store.open(path: configuration.databaseFile.path, migrations: HostSchema.migrations)
        }
        try HostSchema.claim(store, for: configuration.region.id)
        // The clock goes on where it was before a restart (it never goes back by itself).
        configuration.clock.resume(offset: try store.read { db in try db.host.clockOffset() })

        let outbox = Outbox(
            defaultURL: configuration.webhookURL, flavour: configuration.flavour, random: configuration.random,
            destinations: Outbox.destinations(configuration.flavour, resolver: configuration.resolver))
        let lifecycle = Lifecycle(
            store: store, clock: configuration.clock,
            credentials: Credentials(region: configuration.region.id, random: configuration.random),
            region: configuration.region, flavour: configuration.flavour,
            directory: Lifecycle.Directory(configuration.fixtures, region: configuration.region), outbox: outbox)
        try lifecycle.loadFixtures(configuration.fixtures)
        let directory = lifecycle.directory
        dispatcher = Dispatcher(
            store: store, clock: configuration.clock, wallClock: configuration.wallClock, apiKey: { directory.merchants[$0]?.apiKey },
            destinations: outbox.destinations, operatorURL: configuration.webhookURL, lease: configuration.webhookLease)
        // The dispatcher sleeps until an event is due: a commit that makes one due, or a move of
        // the clock that brings a retry's time nearer, wakes it.
        // Weakly: the store and the clock must not keep a stopped host's dispatcher (and its store) alive.
        store.listen(WebhookRepository.channel) { [weak dispatcher] in dispatcher?.wake() }
        configuration.clock.observeMoves { [weak dispatcher] in dispatcher?.wake() }
        // Receipt links name the host's own address, known once it listens.
        let address = Address(host: configuration.server.host)
        let payments = CardPayments(lifecycle: lifecycle, data: configuration.payments, random: configuration.random, outbox: outbox)
        let webhooks = WebhookLog(lifecycle: lifecycle, payments: payments, outbox: outbox)
        let wallet = WalletClient(
            baseURL: configuration.walletURL, region: configuration.region.id, secret: configuration.walletSecret,
            wallClock: configuration.wallClock)
        self.wallet = wallet
        let apm = APMPayments(payments: payments, wallet: wallet)
        let courier = WalletCourier(store: store, wallet: wallet, apm: apm, wallClock: configuration.wallClock)
        self.courier = courier
        store.listen(APMRepository.channel) { [weak courier] in courier?.wake() }
        configuration.clock.observeMoves { [weak courier] in courier?.wake() }
        let key = configuration.fixtures.backOfficeKey
        var router = Router()
        // A write that found the disk full is a 503 the client may retry, not a bare 500.
        router.translateError = { ($0 as? DatabaseError)?.isStorageFull == true ? HTTPError.storageFull : nil }
        try Self.addServiceRoutes(to: &router, configuration, store)
        Self.addRegistrationRoutes(to: &router, lifecycle)
        Self.addSessionRoutes(to: &router, lifecycle)
        Self.addMerchantRoutes(to: &router, lifecycle, payments)
        Self.addBackOfficeRoutes(to: &router, lifecycle, key: key)
        Self.addSandboxRoutes(
            to: &router, lifecycle, webhooks, fixtures: configuration.fixtures, clock: configuration.clock,
            afterClockMove: {
                // Deadlines that the move passed are applied now, so their webhooks go with nobody polling.
                try apm.sweep()
                courier.wake()
            })
        journal = RequestJournal(
            clock: configuration.clock, sharing: store.engine == .postgres ? SharedState.Journal(store: store) : nil)
        let replicated = store.engine == .postgres
        faults = FaultPlan(clock: configuration.clock, sharing: replicated ? SharedState.Faults(store: store) : nil)
        let shared = replicated ? SharedState(store: store, clock: configuration.clock, faults: faults, journal: journal) : nil
        self.shared = shared
        if let shared {
            // Another replica moved the clock or changed the faults: taken up now (the workers
            // here wake to what a move made due).
            store.listen(HostRepository.clockChannel) { shared.follow() }
        }
        Self.addSnapshotRoutes(
            to: &router, lifecycle, shelf: configuration.snapshots, gate: gate, faults: faults, fixtures: configuration.fixtures,
            clock: configuration.clock,
            afterRestore: { [dispatcher] in
                // What the restored rows make due goes now; deadlines already past are applied.
                try apm.sweep()
                courier.wake()
                dispatcher.wake()
            })
        Self.addCustomerRoutes(to: &router, lifecycle, issuer: payments.data.issuer)
        Self.addSeedRoutes(to: &router, Seeding(lifecycle: lifecycle, payments: payments, outbox: outbox, apm: apm))
        Self.addPaymentRoutes(to: &router, payments, baseURL: { address.url })
        Self.addAPMRoutes(to: &router, apm, courier: courier)
        Self.addProviderRoutes(to: &router, apm, courier: courier)
        Self.addReceiptRoutes(to: &router, payments)
        Self.addWebhookRoutes(to: &router, webhooks, outbox: outbox, key: key)
        Self.addBackOfficeTransactionRoutes(to: &router, payments, key: key)
        if configuration.region.vendor == .monei {
            Self.addMoneiRoutes(to: &router, try Self.monei(configuration, store, payments))
        }
        // On every host, so a wrong method is 405 everywhere; only a Geopagos region's answers them.
        Self.addGeopagosRoutes(
            to: &router, lifecycle, configuration.region.vendor == .geopagos ? try Self.readerTokens(configuration, store, lifecycle) : nil)
        Self.addTrafficRoutes(to: &router, journal: journal, faults: faults, key: key)
        let guarded = gate.guarding(TrafficResponder(
            inner: router, journal: journal, faults: faults, exempt: Self.isTrafficControl, unfaultable: { $0.hasPrefix("/_sandbox/") },
            surface: Self.surface))
        // Replicas take up the region's shared clock and faults before every request (nothing to do alone on SQLite).
        traffic = shared.map { SharedState.Following(inner: guarded, shared: $0) } ?? guarded
        server = Server(
            name: configuration.region.id, configuration: configuration.server, responder: traffic,
            accessLog: configuration.accessLog)
        address.server = server
    }

    /// MONEI's API of a MONEI region: its stores, and the POS-token key kept in the database.
    private static func monei(_ configuration: Configuration, _ store: Store, _ payments: CardPayments) throws -> MoneiPayments {
        let secret = try store.write { db in
            try db.host.secret("monei_pos_token_key") { Hex.encode(configuration.random.bytes(count: 32)) }
        }
        let stores = try configuration.moneiStores ?? MoneiStores(stores: [], fixtures: configuration.fixtures)
        return MoneiPayments(
            payments: payments, stores: stores, tokens: PosTokens(secret: try Hex.decode(secret), region: configuration.region.id))
    }

    /// Geopagos' reader tokens of a Geopagos region, signed with a key kept in the database.
    private static func readerTokens(_ configuration: Configuration, _ store: Store, _ lifecycle: Lifecycle) throws -> ReaderTokens {
        let secret = try store.write { db in
            try db.host.secret("geopagos_reader_token_key") { Hex.encode(configuration.random.bytes(count: 32)) }
        }
        return ReaderTokens(
            lifecycle: lifecycle, tokens: SignedTokens(secret: try Hex.decode(secret), region: configuration.region.id),
            random: configuration.random)
    }

    /// The base URL of a server that may not listen yet (port 0 is chosen at start).
    final class Address: @unchecked Sendable {
        let host: String
        weak var server: Server?

        init(host: String) { self.host = host == "0.0.0.0" ? "127.0.0.1" : host }

        var url: String { "http://\(host):\(server?.port ?? 0)" }
    }

    /// Points the host at the wallet simulator started after it (`sandbox up` starts the wallet
    /// once it knows every host's URL); until then ``Configuration/walletURL`` holds.
    public func useWallet(at url: String) { wallet.use(baseURL: url) }

    /// Delivers the webhook events due now and returns once their answers are recorded: one pass of
    /// the dispatcher, for a host started with ``Configuration/dispatchesWebhooks`` false, whose
    /// deliveries a test drives (and then knows that what was not sent was not due).
    ///
    /// - Returns: how many events it attempted.
    @discardableResult
    public func deliverDueWebhooks() throws -> Int { try dispatcher.deliverDue() }

    /// Stops the webhook dispatcher and the wallet courier, then the server.
    public func stop() {
        dispatcher.stop()
        courier.stop()
        server.stop()
        store.closeIdleConnections()
    }

    /// Builds the host and starts listening.
    public static func start(configuration: Configuration) throws -> EnvironmentHost {
        let host = try EnvironmentHost(configuration: configuration)
        try host.server.start()
        if configuration.dispatchesWebhooks { host.dispatcher.start() }
        host.courier.start()
        return host
    }

    public func respond(to request: Request) -> Response {
        traffic.respond(to: request)
    }

    public func respond(to request: Request, reply: @escaping @Sendable (@escaping Answering) -> Void) {
        traffic.respond(to: request, reply: reply)
    }
}
