import WalletRules
import WalletStorage
import LockedValue
import SandboxTime
import Foundation
import SandboxCore
import SandboxHTTP
import SandboxStore
import Synchronization

/// The APM wallet simulator: the QR-wallet provider the hosts call, the customer who opens
/// the QR (docs/qr-payments.md), and the BLIK bank with its customers' bank app (docs/blik.md).
///
/// Its state is one SQLite file, `<data-dir>/wallet.sqlite`: orders, refunds, standing rules, BLIK
/// customers (balances) and codes, and the outbox of notifications to the hosts, which a delivery
/// thread sends until each is acknowledged. A scheduler carries out what rules planned, on the wallet's own clock.
///
/// ```swift
/// let wallet = try WalletSimulator.start(configuration: .init(
///     server: ServerConfiguration(host: "127.0.0.1", port: 8110), webRoot: web, openAPIFile: spec,
///     dataDirectory: URL(fileURLWithPath: ".sandbox"), data: try WalletData.load(contentsOf: walletJSON),
///     hostURLs: ["EU": "http://127.0.0.1:8100"]))
/// ```
public final class WalletSimulator: RunningService, Responder {
    public struct Configuration: Sendable {
        public var server: ServerConfiguration
        /// `web/wallet`.
        public var webRoot: URL
        /// `openapi/wallet.yaml`.
        public var openAPIFile: URL
        public var accessLog: AccessLog?
        /// Where `wallet.sqlite` lives.
        public var dataDirectory: URL
        /// A PostgreSQL database (`postgres://…`) instead of `wallet.sqlite` in ``dataDirectory``:
        /// the tables live in its schema `wallet`, and every wallet started on it is a replica.
        public var database: String?
        /// Folder of the named snapshots, shared with the sandbox's hosts; nil: `<data-dir>/snapshots`.
        public var snapshotDirectory: URL?
        /// `sandbox-data/wallet.json`.
        public var data: WalletData
        /// Region → base URL of its host: the only places the wallet sends notifications to.
        public var hostURLs: [String: String]
        /// The base of every `payUrl` (what a phone on the LAN can reach, `http://192.168.1.20:8110`);
        /// `nil`: the wallet's own URL.
        public var publicURL: String?
        /// The wallet's clock; `POST /_sandbox/clock` moves it.
        public var clock: SandboxClock
        /// Real time, for the signatures' timestamps and delivery retries.
        public var realTime: any TimeSource
        public var ids: IdentifierSource
        /// The digits of the BLIK codes the bank app issues.
        public var blikCodes: BlikCodeSource
        /// The first delivery retry; each next one waits twice as long, up to `longestRetry`.
        public var firstRetry: Duration
        public var longestRetry: Duration
        /// How long a customer's Pay waits for the host's answer.
        public var payWait: Duration

        public init(
            server: ServerConfiguration, webRoot: URL, openAPIFile: URL, accessLog: AccessLog? = nil, dataDirectory: URL,
            data: WalletData, hostURLs: [String: String] = [:], publicURL: String? = nil, clock: SandboxClock = SandboxClock(),
            realTime: any TimeSource = WallClock(), ids: IdentifierSource = .random, blikCodes: BlikCodeSource = .random, firstRetry: Duration = .milliseconds(250),
            longestRetry: Duration = .seconds(10), payWait: Duration = .seconds(2)
        ) {
            self.server = server
            self.webRoot = webRoot
            self.openAPIFile = openAPIFile
            self.accessLog = accessLog
            self.dataDirectory = dataDirectory
            self.data = data
            self.hostURLs = hostURLs
            self.publicURL = publicURL
            self.clock = clock
            self.realTime = realTime
            self.ids = ids
            self.blikCodes = blikCodes
            self.firstRetry = firstRetry
            self.longestRetry = longestRetry
            self.payWait = payWait
        }
    }

    /// The database file's name under the data directory.
    public static let databaseFile = "wallet.sqlite"

    public let name = "wallet"
    public let configuration: Configuration
    public let server: Server
    private let router: Router
    let book: OrderBook
    private let notifier: Notifier
    private let hostURLs: LockedValueBox<[String: String]>
    private let scheduler: Scheduler
    /// Closed while a snapshot is restored: no request sees the wallet half brought back.
    private let gate = RequestGate()
    private let front: any Responder

    public init(configuration: Configuration) throws {
        self.configuration = configuration
        let store =
            if let database = configuration.database {
                try Store.open(postgres: database, schema: "wallet", migrations: WalletSchema.postgresMigrations)
            } else {
                try Store.open(path: configuration.dataDirectory.appendingPathComponent(Self.databaseFile).path, migrations: WalletSchema.migrations)
            }
        // The clock goes on where it was before a restart (it never goes back by itself).
        configuration.clock.resume(offset: try store.read { db in try db.walletState.clockOffset() })
        let publicURL = LockedValueBox<String?>(configuration.publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 })
        let hostURLs = LockedValueBox(configuration.hostURLs)
        self.hostURLs = hostURLs
        // The server is made after the routes, which need the book: the pay URLs find it here. On a
        // wildcard bind they name this machine's network address, which a phone scanning the QR reaches.
        let listening = LockedValueBox<Server?>(nil)
        let book = try OrderBook(
            store: store, clock: configuration.clock, realTime: configuration.realTime, data: configuration.data,
            ids: configuration.ids, codes: configuration.blikCodes, publicURL: { [advertised = ListenAddress.reachable(configuration.server.host)] in
                publicURL.withLockedValue { $0 } ?? "http://\(advertised):\(listening.withLockedValue { $0?.port } ?? 0)"
            }, payWait: configuration.payWait)
        self.book = book
        notifier = Notifier(
            book: book,
            policy: .init(firstRetry: configuration.firstRetry, longestRetry: configuration.longestRetry, concurrency: 16, timeout: .seconds(5)),
            hostURL: { region in hostURLs.withLockedValue { $0[region] } })
        let scheduler = Scheduler(book: book)
        self.scheduler = scheduler
        store.listen(OrderRepository.scheduleChannel) { [weak scheduler] in scheduler?.wake() }
        configuration.clock.observeMoves { [weak scheduler] in scheduler?.wake() }

        var router = Router()
        // A write that found the disk full is a 503 the client may retry, not a bare 500; health says so.
        router.translateError = { ($0 as? DatabaseError)?.isStorageFull == true ? HTTPError.storageFull : nil }
        router.get("/healthz", .nonBlocking) { _ in
            store.isStorageFull
                ? .json(["status": "degraded", "service": "wallet", "database": "full"], status: 503)
                : .json(["status": "ok", "service": "wallet"])
        }
        try router.serveOpenAPI(configuration.openAPIFile)
        let realTime = configuration.realTime
        Self.addProviderRoutes(to: &router, book: book, realTime: { Int(realTime.now().timeIntervalSince1970.rounded(.down)) })
        Self.addCustomerRoutes(to: &router, book: book)
        Self.addBlikRoutes(to: &router, book: book)
        Self.addSandboxRoutes(to: &router, book: book)
        Self.addSeedRoutes(to: &router, book: book)
        let shelf = SnapshotShelf(
            folder: configuration.snapshotDirectory ?? configuration.dataDirectory.appendingPathComponent("snapshots"), file: Self.databaseFile)
        router.addSnapshotRoutes(
            shelf: shelf, gate: gate,
            save: { name in try shelf.save(name) { url in try store.read { db in try db.backup(to: url.path) } } },
            restore: { name in
                do {
                    try book.restore(from: shelf.location(of: name).path)
                } catch let error as DatabaseError where error == .schemaMismatch {
                    throw HTTPError(
                        status: 409, code: .snapshotMismatch,
                        message: "Snapshot '\(name)' was saved by a wallet of another version (\(error.message)): nothing was restored.")
                }
                scheduler.wake()
            })
        Self.addPageRoutes(to: &router, book: book, webRoot: configuration.webRoot)
        router.fallback = StaticFiles(root: configuration.webRoot)
        self.router = router
        front = gate.guarding(router)
        // A phone opens the pay pages at the public URL: its host is a name the wallet answers to.
        var serving = configuration.server
        if let name = configuration.publicURL.flatMap({ URL(string: $0)?.host }) { serving.allowedHosts.append(name) }
        let server = Server(name: "wallet", configuration: serving, responder: front, accessLog: configuration.accessLog)
        listening.withLockedValue { $0 = server }
        self.server = server
    }

    /// Starts serving, delivering the outbox and carrying out what is due.
    public static func start(configuration: Configuration) throws -> WalletSimulator {
        let wallet = try WalletSimulator(configuration: configuration)
        try wallet.server.start()
        wallet.notifier.start()
        wallet.scheduler.start()
        return wallet
    }

    /// Points the wallet at the hosts (`sandbox up` learns their URLs after the wallet started).
    public func setHostURLs(_ urls: [String: String]) {
        hostURLs.withLockedValue { $0.merge(urls) { _, new in new } }
        book.outboxChanged.broadcast()
    }

    /// How many notifications wait for their host.
    public func pendingNotifications() throws -> Int {
        try book.store.read { db in try db.outbox.pendingCount() }
    }

    public func stop() {
        server.stop()
        scheduler.stop()
        notifier.stop()
        book.store.closeIdleConnections()
    }

    public func respond(to request: Request) -> Response { front.respond(to: request) }
}
