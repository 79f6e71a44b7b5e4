import Foundation
import Launcher
import SandboxHTTP
import TestSupport
import Testing

// The whole sandbox in this process (as LifecycleTests/Support/Fixtures.swift starts it), the
// merchants.json facts the payment tests pick terminals by, and one environment host's
// registration and login calls.

/// `sandbox-data/merchants.json`, the parts the payment tests use.
struct MerchantsFile: Decodable {
    var regions: [String: RegionFixture]

    static func load(sourceLocation: SourceLocation = #_sourceLocation) throws -> MerchantsFile {
        let file = Paths.sandboxData.appendingPathComponent("merchants.json")
        let data = try #require(
            try? Data(contentsOf: file), "sandbox-data/merchants.json is missing", sourceLocation: sourceLocation)
        return try JSONDecoder().decode(MerchantsFile.self, from: data)
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
    var name: String
    var address1: String
    var apiKey: String
    var terminals: [TerminalFixture]
}

struct TerminalFixture: Decodable {
    struct Tips: Decodable { var enabled: Bool }
    struct Reference: Decodable {
        var enabled: Bool
        var pattern: String?
    }

    var id: String
    var autoLogin: Bool
    var registerOptions: [String]?
    var refundAvailable: Bool
    var reversalAvailable: Bool
    var limitAmount: Int
    var permittedCountries: [String]?
    var tips: Tips
    var reference: Reference

    func allows(_ option: String) -> Bool { registerOptions?.contains(option) ?? true }
}

/// `sandbox-data/environments.json`: a region's currency and feature switches.
struct RegionFacts {
    var currency: String
    var dcc: Bool
    var tips: Bool

    static func load(_ region: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> RegionFacts {
        let file = Paths.sandboxData.appendingPathComponent("environments.json")
        let data = try #require(try? Data(contentsOf: file), "environments.json is missing", sourceLocation: sourceLocation)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let regions = try #require(object["regions"] as? [[String: Any]])
        let entry = try #require(regions.first { $0["id"] as? String == region }, "no region \(region)", sourceLocation: sourceLocation)
        return RegionFacts(
            currency: entry["currency"] as? String ?? "", dcc: entry["dcc"] as? Bool ?? false, tips: entry["tips"] as? Bool ?? false)
    }
}

// MARK: - The sandbox, in process

/// `sandbox up` started in this process on ports the system picks, with its state in a
/// temporary folder; stopped by `withSandbox` when the test ends.
final class RunningSandbox: @unchecked Sendable {
    let directory: TemporaryDirectory
    let sandbox: Sandbox
    let fixtures: MerchantsFile

    /// - Parameter directory: where the state lives; a sandbox started again on it finds its databases.
    init(directory: TemporaryDirectory = TemporaryDirectory()) throws {
        self.directory = directory
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

    /// The database file of `region`'s host (`<data-dir>/<region>.sqlite`).
    func databasePath(_ region: String) -> String { directory.file("state").appendingPathComponent(region.lowercased() + ".sqlite").path }

    /// The host of `region` with its fixtures.
    func host(_ region: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Host {
        let running = try #require(
            sandbox.hosts.first { $0.name == region }, "the sandbox runs no host \(region)", sourceLocation: sourceLocation)
        let fixture = try #require(fixtures.regions[region], "merchants.json has no region \(region)", sourceLocation: sourceLocation)
        return Host(
            service: Service(name: region, baseURL: running.url), fixture: fixture,
            facts: try RegionFacts.load(region, sourceLocation: sourceLocation))
    }
}

/// Starts the whole sandbox (on the state in `directory`, a new one by default), runs `body`, stops the sandbox.
func withSandbox<T>(directory: TemporaryDirectory = TemporaryDirectory(), _ body: (RunningSandbox) async throws -> T) async throws -> T {
    let running = try RunningSandbox(directory: directory)
    do {
        let result = try await body(running)
        running.stop()
        return result
    } catch {
        running.stop()
        throw error
    }
}

// MARK: - One environment host

/// What a registered device keeps.
struct DeviceCredential {
    var deviceId: String
    var secret: String
    var terminalId: String

    var body: [String: Any] { ["deviceId": deviceId, "deviceSecret": secret] }
}

/// One environment host: registration, login, clock and the back-office and merchant calls.
struct Host {
    static let pin = "24680"

    var service: Service
    var fixture: RegionFixture
    var facts: RegionFacts

    var region: String { service.name }
    var currency: String { facts.currency }

    /// The first terminal of the region matching `rule` (merchants.json order).
    func terminal(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, where rule: (TerminalFixture) -> Bool
    ) throws -> TerminalFixture {
        let found = fixture.terminals.first(where: rule)
        return try #require(found, "[\(region)] merchants.json has no terminal \(what)", sourceLocation: sourceLocation)
    }

    func apiKey(owning terminal: String) -> String? { fixture.merchant(owning: terminal)?.apiKey }

    /// The merchant of `terminal` in merchants.json.
    func merchant(owning terminal: String) -> MerchantFixture? { fixture.merchant(owning: terminal) }

    @discardableResult
    func advanceClock(_ seconds: Int, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) async -> Reply {
        let reply = await service.call("POST", "/_sandbox/clock", body: ["advanceSeconds": seconds])
        expectReply(reply, 200, nil, "\(step): move the host clock +\(seconds) s", sourceLocation: sourceLocation)
        return reply
    }

    func mailbox() async -> Reply {
        await service.call("GET", "/backoffice/v1/mailbox", bearer: fixture.backOfficeKey)
    }

    /// Registers a fresh device on `terminal` with a registration token the merchant issues
    /// (or portal activation when the terminal allows only that).
    func register(_ terminal: TerminalFixture, sourceLocation: SourceLocation = #_sourceLocation) async throws -> DeviceCredential {
        let device = "pay-\(terminal.id)-\(UUID().uuidString.lowercased())"
        let step = "[\(region)] register a device on \(terminal.id)"
        if terminal.allows("registrationCode") {
            let key = try #require(apiKey(owning: terminal.id), "no merchant owns \(terminal.id)", sourceLocation: sourceLocation)
            let issued = expectReply(
                await service.call("POST", "/merchant/v1/registration-tokens", bearer: key, body: ["terminalId": terminal.id]),
                201, nil, "\(step): issue token", sourceLocation: sourceLocation)
            let token = try #require(issued.string("registrationToken"), "\(step): \(issued)", sourceLocation: sourceLocation)
            expectReply(
                await service.call("POST", "/terminal/v1/token-registrations/verify", body: ["registrationToken": token]),
                200, nil, "\(step): verify", sourceLocation: sourceLocation)
            expectReply(
                await service.call(
                    "POST", "/terminal/v1/token-registrations/begin",
                    body: ["registrationToken": token, "deviceId": device, "deviceModel": "iPhone15,2"]),
                200, nil, "\(step): begin", sourceLocation: sourceLocation)
            let ended = expectReply(
                await service.call(
                    "POST", "/terminal/v1/token-registrations/end",
                    body: ["registrationToken": token, "deviceId": device, "pin": Self.pin]),
                200, nil, "\(step): end", sourceLocation: sourceLocation)
            let secret = try #require(ended.string("deviceSecret"), "\(step): \(ended)", sourceLocation: sourceLocation)
            return DeviceCredential(deviceId: device, secret: secret, terminalId: terminal.id)
        }
        let begun = expectReply(
            await service.call(
                "POST", "/terminal/v1/registrations", body: ["deviceId": device, "deviceModel": "iPhone15,2", "osVersion": "18.1"]),
            201, nil, "\(step): begin", sourceLocation: sourceLocation)
        let challenge = try #require(begun.string("challengeCode"), "\(step): \(begun)", sourceLocation: sourceLocation)
        let confirmed = expectReply(
            await service.call(
                "POST", "/backoffice/v1/challenges/confirm", bearer: fixture.backOfficeKey,
                body: ["challengeCode": challenge, "terminalId": terminal.id]),
            200, nil, "\(step): confirm", sourceLocation: sourceLocation)
        let code = try #require(confirmed.string("backofficeCode"), "\(step): \(confirmed)", sourceLocation: sourceLocation)
        let done = expectReply(
            await service.call(
                "POST", "/terminal/v1/registrations/complete", body: ["deviceId": device, "backofficeCode": code, "pin": Self.pin]),
            200, nil, "\(step): complete", sourceLocation: sourceLocation)
        let secret = try #require(done.string("deviceSecret"), "\(step): \(done)", sourceLocation: sourceLocation)
        return DeviceCredential(deviceId: device, secret: secret, terminalId: terminal.id)
    }

    /// Logs in (without PIN on auto-login terminals) and returns the session token.
    func login(
        _ device: DeviceCredential, autoLogin: Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        var body = device.body
        if !autoLogin { body["pin"] = Self.pin }
        let reply = expectReply(
            await service.call("POST", "/terminal/v1/sessions", body: body), 201, nil,
            "[\(region)] log in on \(device.terminalId)", sourceLocation: sourceLocation)
        return try #require(reply.string("sessionToken"), "login: \(reply)", sourceLocation: sourceLocation)
    }
}
