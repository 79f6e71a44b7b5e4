import Foundation
import Launcher
import SandboxHTTP
import SandboxHTTPClient
import TestSupport
import Testing

// `sandbox up` in this process (ports chosen by the system, state in a temporary folder), and
// the merchant's side of it over HTTP: the back office that confirms challenges and issues
// registration tokens, the sandbox clock, the mailbox. This file is the only one that sees the
// server modules; the SDK tests talk to the sandbox through URLs alone.

/// One client for the suite: the back office and the clock, as a tester's tools call them.
let backOfficeHTTP = HTTPClient(configuration: .init(connectTimeout: .seconds(5), totalTimeout: .seconds(15)))

/// The parts of `sandbox-data/merchants.json` the tests read.
struct MerchantsFile: Decodable {
    struct Region: Decodable {
        let backOfficeKey: String
        let merchants: [Merchant]
    }

    struct Merchant: Decodable {
        let id: String
        let apiKey: String
        let terminals: [Terminal]
    }

    struct Terminal: Decodable {
        let id: String
        let autoLogin: Bool
    }

    let regions: [String: Region]

    static let shipped: MerchantsFile = {
        let file = Paths.sandboxData.appendingPathComponent("merchants.json")
        guard let data = try? Data(contentsOf: file), let decoded = try? JSONDecoder().decode(MerchantsFile.self, from: data) else {
            fatalError("sandbox-data/merchants.json is missing or unreadable")
        }
        return decoded
    }()
}

/// The whole sandbox, started for one test and stopped by ``withSandbox(_:)``.
final class LiveSandbox: @unchecked Sendable {
    let directory = TemporaryDirectory()
    private let sandbox: Sandbox

    init() throws {
        let options = try #require(
            try HostCommand.description.parse([
                "--sandbox-data", Paths.sandboxData.path, "--web", Paths.web.path, "--openapi", Paths.openAPI.path,
            ]))
        sandbox = try Sandbox.start(
            configuration: Sandbox.Configuration(
                resources: try Resources.locate(options), basePort: 0, server: ServerConfiguration(drainSeconds: 0.2),
                dataDirectory: directory.file("state"), flavour: .sandbox, accessLog: nil))
    }

    func stop() { sandbox.stop() }

    /// Region id → base URL: the SDK's endpoint overrides.
    var endpoints: [String: URL] {
        Dictionary(uniqueKeysWithValues: sandbox.hosts.map { ($0.name, URL(string: $0.url)!) })
    }

    /// The back office of a region.
    func backOffice(_ region: String) -> BackOffice {
        let host = sandbox.hosts.first { $0.name == region }!
        return BackOffice(region: region, baseURL: host.url, key: MerchantsFile.shipped.regions[region]!.backOfficeKey)
    }
}

/// Starts the sandbox, runs `body`, stops the sandbox.
func withSandbox<T>(_ body: (LiveSandbox) async throws -> T) async throws -> T {
    let sandbox = try LiveSandbox()
    defer { sandbox.stop() }
    return try await body(sandbox)
}

struct BackOfficeFailure: Error, CustomStringConvertible {
    let description: String
}

/// What the merchant portal does for a tester, over the host's back-office and sandbox APIs.
struct BackOffice: Sendable {
    let region: String
    let baseURL: String
    let key: String

    /// Sends a JSON request; answers the status and the decoded object.
    @discardableResult
    func call(_ method: String, _ path: String, body: [String: Any]? = nil, authorized: Bool = true) async throws
        -> (status: Int, json: [String: Any])
    {
        var headers: HTTPClientHeaders = ["Accept": "application/json"]
        if authorized { headers.add(name: "Authorization", value: "Bearer \(key)") }
        var bytes: [UInt8] = []
        if let body {
            bytes = Array(try JSONSerialization.data(withJSONObject: body))
            headers.add(name: "Content-Type", value: "application/json")
        }
        let response = try await backOfficeHTTP.send(
            HTTPClientRequest(method: .init(rawValue: method), url: baseURL + path, headers: headers, body: bytes))
        let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        return (response.status, json)
    }

    private func expect(_ answer: (status: Int, json: [String: Any]), _ status: Int, _ what: String) throws -> [String: Any] {
        guard answer.status == status else {
            throw BackOfficeFailure(description: "[\(region)] \(what): expected \(status), got \(answer.status) \(answer.json)")
        }
        return answer.json
    }

    /// The portal turns the device's challenge code into a back-office code for `terminal`.
    func confirm(challenge: String, terminal: String) async throws -> String {
        let json = try expect(
            try await call("POST", "/backoffice/v1/challenges/confirm", body: ["challengeCode": challenge, "terminalId": terminal]), 200,
            "confirm challenge")
        return try #require(json["backofficeCode"] as? String)
    }

    /// A registration token for `terminal`, as the merchant's backend would get it.
    func registrationToken(terminal: String) async throws -> String {
        let json = try expect(
            try await call("POST", "/backoffice/v1/registration-tokens", body: ["terminalId": terminal]), 201, "issue token")
        return try #require(json["registrationToken"] as? String)
    }

    /// What the back office knows of a terminal (`registered`, `deviceId`, `locked` …).
    func terminal(_ id: String) async throws -> [String: Any] {
        try expect(try await call("GET", "/backoffice/v1/terminals/\(id)"), 200, "terminal state")
    }

    /// The sandbox mailbox, newest first.
    func mailbox() async throws -> [[String: Any]] {
        try expect(try await call("GET", "/backoffice/v1/mailbox"), 200, "mailbox")["messages"] as? [[String: Any]] ?? []
    }

    /// Moves the host's clock forward (`POST /_sandbox/clock`).
    func advanceClock(seconds: Double) async throws {
        _ = try expect(try await call("POST", "/_sandbox/clock", body: ["advanceSeconds": seconds], authorized: false), 200, "clock")
    }
}
