import SandboxTime
import EnvironmentHost
import Foundation
import Launcher
import SandboxCore
import SandboxHTTP
import SandboxHTTPClient
import Testing
import SandboxTestSupport

/// One environment host started in this process on a port the system picks, its database in a
/// temporary folder, its sandbox clock at hand and no default webhook receiver: for the suites
/// that need one host with injected clocks rather than the whole sandbox.
public final class InProcessHost: @unchecked Sendable {
    /// The folder the state lives in; a host started again on it finds its database.
    public let directory: TemporaryDirectory
    public let host: EnvironmentHost
    /// The clock the host's rules read (moved over `/_sandbox/clock` or directly).
    public let clock: SandboxClock
    /// The host over HTTP.
    public let service: Service

    /// Starts the host of `region` on `directory` (a fresh one by default; pass a previous host's to restart).
    ///
    /// - Parameters:
    ///   - wallClock: the real time the host signs webhooks with (the system's by default).
    ///   - dispatches: whether it delivers webhooks itself (false: a test drives the dispatcher).
    ///   - walletURL: the QR wallet provider it makes orders at (a ``WalletProviderDouble``'s URL); nil: none.
    ///   - resolver: how it resolves webhook hosts (the system's by default; a test's table to play DNS).
    ///   - webhookURL: the operator's default receiver of a merchant (`sandbox up`'s inbox); nil: none.
    ///   - clock: the sandbox clock; by default one that stands still but for what the test moves
    ///     (a rule's window must not race real time on a loaded machine); `SandboxClock()` runs with it.
    public init(
        region id: String, flavour: Flavour = .sandbox, directory: TemporaryDirectory = TemporaryDirectory(),
        dispatches: Bool = true, wallClock: any TimeSource = WallClock(), walletURL: String? = nil,
        resolver: PublicAddress.Resolver? = nil, webhookURL: (@Sendable (String) -> String?)? = nil,
        clock: SandboxClock = .standingStill(), sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let resources = try InProcessSandbox.resources.get()
        let region = try #require(resources.catalogue.region(id), "no \(id) in environments.json", sourceLocation: sourceLocation)
        self.directory = directory
        self.clock = clock
        var configuration = EnvironmentHost.Configuration(
            region: region, flavour: flavour, fixtures: resources.fixtures(region), payments: resources.paymentData(region),
            server: ServerConfiguration(drainSeconds: 0.1), dataDirectory: directory.file("state"),
            openAPIFile: resources.openAPIFile(region), clock: clock,
            wallClock: wallClock, webhookURL: webhookURL, dispatchesWebhooks: dispatches, walletURL: walletURL,
            walletSecret: try resources.walletSecret(region))
        if let resolver { configuration.resolver = resolver }
        configuration.database = try Self.database(for: directory)
        configuration.moneiStores = try resources.moneiStores(region)
        host = try EnvironmentHost.start(configuration: configuration)
        // Answered in process: the route tests need the host's answers, not a socket's trip.
        service = Service(name: id, baseURL: host.url, responder: host)
    }

    public func stop() { host.stop() }

    /// Whether this test run keeps the hosts' state on PostgreSQL (`SANDBOX_TEST_DATABASE=postgres`).
    public static let onPostgres = ProcessInfo.processInfo.environment["SANDBOX_TEST_DATABASE"] == "postgres"

    /// With `SANDBOX_TEST_DATABASE=postgres` in the environment, every in-process host keeps its
    /// state in a database of the tests' PostgreSQL server (the same one again for a host started
    /// on the same folder), so that the route suites run on both engines; nil (SQLite) otherwise.
    public static func database(for directory: TemporaryDirectory) throws -> String? {
        guard onPostgres else { return nil }
        let file = directory.file("database-url")
        if let known = try? String(contentsOf: file, encoding: .utf8) { return known }
        let url = try PostgresServer.shared().newDatabase()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        try url.write(to: file, atomically: true, encoding: .utf8)
        return url
    }
}

extension SandboxClock {
    /// A sandbox clock stopped at `start` (now by default): it moves only when advanced or set.
    public static func standingStill(at start: Date = Date()) -> SandboxClock {
        SandboxClock(base: { start })
    }
}
