import Foundation
import Launcher
import SandboxHTTP
import TestSupport
import Testing

// What the tests read from sandbox-data: region ids (environments.json) and merchants, terminals
// and keys (merchants.json). Nothing here is hard-coded: the fixtures may change under the tests.

/// The region ids of `sandbox-data/environments.json`, in file order (the walk runs on each).
let regionIDs: [String] = {
    let file = Paths.sandboxData.appendingPathComponent("environments.json")
    guard let data = try? Data(contentsOf: file),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let regions = object["regions"] as? [[String: Any]]
    else { return [] }
    return regions.compactMap { $0["id"] as? String }
}()

/// The default currency code of a region in `environments.json`.
func regionCurrency(_ region: String) -> String? {
    let file = Paths.sandboxData.appendingPathComponent("environments.json")
    guard let data = try? Data(contentsOf: file),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let regions = object["regions"] as? [[String: Any]]
    else { return nil }
    return regions.first { $0["id"] as? String == region }?["currency"] as? String
}

/// `sandbox-data/merchants.json`, only the parts the tests use.
struct MerchantsFile: Decodable {
    var regions: [String: RegionFixture]

    static func load(sourceLocation: SourceLocation = #_sourceLocation) throws -> MerchantsFile {
        let file = Paths.sandboxData.appendingPathComponent("merchants.json")
        let data = try #require(
            try? Data(contentsOf: file), "sandbox-data/merchants.json is missing", sourceLocation: sourceLocation)
        return try JSONDecoder().decode(MerchantsFile.self, from: data)
    }

    func region(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> RegionFixture {
        try #require(regions[id], "merchants.json has no region \(id)", sourceLocation: sourceLocation)
    }
}

struct RegionFixture: Decodable {
    var backOfficeKey: String
    var merchants: [MerchantFixture]

    var terminals: [TerminalFixture] { merchants.flatMap(\.terminals) }

    func merchant(owning terminal: String) -> MerchantFixture? {
        merchants.first { $0.terminals.contains { $0.id == terminal } }
    }
}

struct MerchantFixture: Decodable {
    var id: String
    var name: String?
    var email: String?
    var apiKey: String
    var terminals: [TerminalFixture]
}

struct TerminalFixture: Decodable {
    var id: String
    var autoLogin: Bool
    var registerOptions: [String]?

    /// Whether the terminal may be registered by `option` (`portal` or `registrationCode`).
    func allows(_ option: String) -> Bool { registerOptions?.contains(option) ?? true }
}

extension MerchantFixture {
    func terminals(allowing option: String) -> [TerminalFixture] { terminals.filter { $0.allows(option) } }
}

extension RegionFixture {
    /// The first merchant with `count` terminals that allow `option`.
    func merchant(
        with count: Int, allowing option: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws
        -> MerchantFixture
    {
        try #require(
            merchants.first { $0.terminals(allowing: option).count >= count },
            "merchants.json has no merchant with \(count) terminals allowing \(option)", sourceLocation: sourceLocation)
    }
}

// MARK: - The sandbox, in process

/// `sandbox up` started in this process on ports the system picks, with its state in a
/// temporary folder; stopped by `withSandbox` when the test ends.
final class RunningSandbox {
    let directory = TemporaryDirectory()
    let sandbox: Sandbox
    let fixtures: MerchantsFile

    init() throws {
        fixtures = try MerchantsFile.load()
        let options = try #require(
            try HostCommand.description.parse([
                "--sandbox-data", Paths.sandboxData.path, "--web", Paths.web.path, "--openapi", Paths.openAPI.path,
            ]))
        let configuration = Sandbox.Configuration(
            resources: try Resources.locate(options), basePort: 0, server: ServerConfiguration(drainSeconds: 0.2),
            dataDirectory: directory.file("state"), flavour: .sandbox, accessLog: nil)
        sandbox = try Sandbox.start(configuration: configuration)
    }

    func stop() { sandbox.stop() }

    /// The host of `region` with its fixtures.
    func host(_ region: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Host {
        let running = try #require(
            sandbox.hosts.first { $0.name == region }, "the sandbox runs no host \(region)", sourceLocation: sourceLocation)
        return Host(
            service: Service(name: region, baseURL: running.url),
            fixture: try fixtures.region(region, sourceLocation: sourceLocation))
    }
}

/// Starts the whole sandbox, runs `body`, stops the sandbox.
func withSandbox<T>(_ body: (RunningSandbox) throws -> T) throws -> T {
    let running = try RunningSandbox()
    defer { running.stop() }
    return try body(running)
}
