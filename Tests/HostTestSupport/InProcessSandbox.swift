import Foundation
import Launcher
import SandboxHTTP
import Testing
import SandboxTestSupport

/// `sandbox up` started in this process on ports the system picks, with its state in a temporary
/// folder: every region's host, the portal, the wallet and the inbox, as the suites that talk to
/// the whole sandbox start it. `withSandbox` stops it when the
/// test ends.
public final class InProcessSandbox: @unchecked Sendable {
    /// The checkout's `sandbox-data`, `web` and `openapi` folders, loaded once for the test process.
    public static let resources: Result<Resources, any Error> = Result {
        try Resources.load(sandboxData: Paths.sandboxData, web: Paths.web, openAPI: Paths.openAPI)
    }

    /// The folder the state lives in; a sandbox started again on it finds its databases.
    public let directory: TemporaryDirectory
    public let sandbox: Sandbox
    /// The checkout's merchants.json, which the running hosts serve.
    public let fixtures: MerchantsFile

    /// Starts the sandbox on `directory` (a fresh one by default); `controlKey` puts its sandbox
    /// control behind that key, as a sandbox that listens beyond loopback has it. The hosts' sandbox
    /// clocks stand still at the start and move only by `POST /_sandbox/clock` (a test on a loaded
    /// machine can take minutes of real time between two calls, which must not eat a rule's window);
    /// `clocksStandStill: false` lets them run with real time, for a test of that. `regions`: only
    /// these regions' hosts run (`sandbox up --regions`), nil: every region.
    public init(
        directory: TemporaryDirectory = TemporaryDirectory(), drainSeconds: Double = 0.2, controlKey: String? = nil,
        clocksStandStill: Bool = true, regions: [String]? = nil
    ) throws {
        self.directory = directory
        fixtures = try MerchantsFile.load()
        var configuration = Sandbox.Configuration(
            resources: try Self.resources.get(), basePort: 0, server: ServerConfiguration(drainSeconds: drainSeconds, controlKey: controlKey),
            dataDirectory: directory.file("state"), flavour: .sandbox, accessLog: nil)
        configuration.regions = regions
        configuration.database = try InProcessHost.database(for: directory)
        if clocksStandStill {
            let start = Date()
            configuration.clockBase = { start }
        }
        sandbox = try Sandbox.start(configuration: configuration)
    }

    public func stop() { sandbox.stop() }

    /// `<folder>/state`: the sandbox's `--data-dir`.
    public var dataDirectory: URL { directory.file("state") }

    /// The database file of `region`'s host (`<data-dir>/<region>.sqlite`).
    public func databasePath(_ region: String) -> String {
        dataDirectory.appendingPathComponent(region.lowercased() + ".sqlite").path
    }

    /// The base URL (`http://127.0.0.1:PORT`) of `region`'s host; a failed requirement when none runs.
    public func url(of region: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(
            sandbox.hosts.first { $0.name == region }, "the sandbox runs no host \(region)", sourceLocation: sourceLocation
        ).url
    }

    /// Region id → base URL: the SDK's endpoint overrides.
    public var endpoints: [String: URL] {
        Dictionary(uniqueKeysWithValues: sandbox.hosts.map { ($0.name, URL(string: $0.url)!) })
    }
}

/// Starts the sandbox (on the state in `directory`, a new one by default) with only `regions`' hosts
/// (EU by default: most tests use one region, and starting, migrating and stopping a dozen hosts
/// for each of them added up; nil: every region), runs `body`, stops the sandbox.
public func withSandbox<T>(
    directory: TemporaryDirectory = TemporaryDirectory(), regions: [String]? = ["EU"], _ body: (InProcessSandbox) throws -> T
) throws -> T {
    let running = try InProcessSandbox(directory: directory, regions: regions)
    defer { running.stop() }
    return try body(running)
}

/// `withSandbox` for an asynchronous test.
public func withSandbox<T>(
    directory: TemporaryDirectory = TemporaryDirectory(), regions: [String]? = ["EU"], _ body: (InProcessSandbox) async throws -> T
) async throws -> T {
    let running = try InProcessSandbox(directory: directory, regions: regions)
    defer { running.stop() }
    return try await body(running)
}
