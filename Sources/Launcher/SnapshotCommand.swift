import CommandLineSupport
import Foundation
import SandboxHTTP
import SandboxHTTPClient
import SandboxWire
import Synchronization

/// `sandbox snapshot save|restore|list|delete [NAME] [--data-dir DIR]` and `sandbox reset`: what a
/// test asks of the whole running sandbox, found by the `endpoints.json` that `sandbox up` wrote in
/// its data directory. Every service that keeps state (each host, the wallet, the webhook inbox)
/// answers for its own part.
public enum SnapshotCommand {
    public static let snapshot = CommandDescription(
        name: "sandbox snapshot",
        summary: """
            Saves the state of every service of a running sandbox under a name (each host's database, clock and faults, the wallet, \
            the webhook inbox), brings it back, lists or deletes snapshots. USAGE: sandbox snapshot save|restore|delete NAME, \
            sandbox snapshot list.
            """,
        options: [.value("data-dir", "DIR", "The data directory of the running sandbox ('sandbox up --data-dir').", default: ".sandbox")],
        examples: [
            "sandbox snapshot save before-checkout", "sandbox snapshot list", "sandbox snapshot restore before-checkout",
            "sandbox snapshot delete before-checkout",
        ])

    public static let reset = CommandDescription(
        name: "sandbox reset",
        summary: "Resets every region of a running sandbox to its fixtures, the wallet to wallet.json, and empties the webhook inbox.",
        options: [.value("data-dir", "DIR", "The data directory of the running sandbox ('sandbox up --data-dir').", default: ".sandbox")],
        examples: ["sandbox reset"])

    /// `sandbox snapshot …`: the action and the name come before the options.
    static func main(_ arguments: ArraySlice<String>) -> Never {
        let action = arguments.first
        var rest = arguments.dropFirst()
        var name: String?
        if let first = rest.first, !first.hasPrefix("--") {
            name = first
            rest = rest.dropFirst()
        }
        guard let action, !action.hasPrefix("--") else {
            CommandMain.run(snapshot, arguments: arguments) { _ in throw UsageError("name an action: save, restore, list or delete") }
        }
        CommandMain.run(snapshot, arguments: rest) { options in
            if let name, !SnapshotShelf.isValid(name) {
                throw UsageError("a snapshot name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit, not '\(name)'")
            }
            let sandbox = try RunningSandbox(options)
            switch (action, name) {
            case ("list", nil): try sandbox.list()
            case ("save", let name?): CommandMain.say(try sandbox.save(name))
            case ("restore", let name?): CommandMain.say(try sandbox.restore(name))
            case ("delete", let name?): CommandMain.say(try sandbox.delete(name))
            case ("list", _?): throw UsageError("'list' takes no name")
            case ("save", nil), ("restore", nil), ("delete", nil): throw UsageError("'\(action)' needs a snapshot name")
            default: throw UsageError("unknown action '\(action)': save, restore, list or delete")
            }
        }
    }

    static func runReset(_ options: ParsedArguments) throws {
        let sandbox = try RunningSandbox(options)
        let started = ContinuousClock.now
        try sandbox.each { service in
            if service.name == "webhooks" {
                try sandbox.call(service, .delete, "/api/events")
            } else {
                try sandbox.call(service, .post, "/_sandbox/reset")
            }
        }
        CommandMain.say("Reset \(sandbox.services.count) services in \(milliseconds(since: started)) ms.")
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}

/// The services of a running sandbox, from its `endpoints.json`.
struct RunningSandbox: Sendable {
    struct Service: Sendable {
        let name: String
        let url: String
    }

    /// Each host, then the wallet and the inbox: the order of saves and restores.
    let services: [Service]
    let controlKey: String?
    let client = HTTPClient()

    init(_ options: ParsedArguments) throws {
        let directory = URL(fileURLWithPath: options.string("data-dir") ?? ".sandbox")
        let file = directory.appendingPathComponent("endpoints.json")
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw UsageError("no sandbox is running with data in \(directory.path) (no endpoints.json there): start one with 'sandbox up --data-dir \(directory.path)'")
        }
        let endpoints: EndpointsFile
        do { endpoints = try EndpointsFile.load(from: file) } catch { throw UsageError(error.description) }
        self.init(endpoints)
    }

    init(_ endpoints: EndpointsFile) {
        var services = endpoints.environments.sorted { $0.key < $1.key }.map { Service(name: $0.key, url: $0.value) }
        if let wallet = endpoints.wallet { services.append(Service(name: "wallet", url: wallet)) }
        if let inbox = endpoints.webhooks { services.append(Service(name: "webhooks", url: inbox)) }
        self.services = services
        controlKey = endpoints.controlKey
    }

    /// Runs `body` for every service at once (each answers for its own part); every failure is reported.
    func each(_ body: @Sendable (Service) throws -> Void) throws {
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: services.count) { index in
            do { try body(services[index]) } catch { failures.withLock { $0.append("\(error)") } }
        }
        let failed = failures.withLock { $0 }
        guard failed.isEmpty else { throw Failure(description: failed.sorted().joined(separator: "\n")) }
    }

    /// A refusal or failure of one service, as the command prints it.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        /// The service's error envelope, when it answered with one.
        var envelope: ErrorEnvelope? = nil
    }

    @discardableResult
    func call(_ service: Service, _ method: HTTPClientRequest.Method, _ path: String, body: [String: String]? = nil) throws -> [UInt8] {
        try call(service, method, path, bytes: try body.map { Array(try JSONEncoder().encode($0)) } ?? [])
    }

    /// The body of a 2xx answer; any other is a ``Failure`` naming the service and the error envelope.
    @discardableResult
    func call(_ service: Service, _ method: HTTPClientRequest.Method, _ path: String, bytes: [UInt8]) throws -> [UInt8] {
        var headers: HTTPClientHeaders = ["Content-Type": "application/json"]
        if let controlKey { headers.add(name: "X-Sandbox-Control-Key", value: controlKey) }
        let url = (service.url.hasSuffix("/") ? String(service.url.dropLast()) : service.url) + path
        let response: HTTPClientResponse
        do {
            response = try client.send(HTTPClientRequest(method: method, url: url, headers: headers, body: bytes, timeout: .seconds(30)))
        } catch {
            throw Failure(description: "\(service.name) at \(service.url) did not answer (\(error)): is the sandbox still running?")
        }
        guard (200..<300).contains(response.status) else {
            let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: Data(response.body))
            throw Failure(
                description: "\(service.name): \(response.status) \(envelope.map { "\($0.error.code.rawValue): \($0.error.message ?? "")" } ?? String(decoding: response.body, as: UTF8.self))",
                envelope: envelope)
        }
        return response.body
    }

    struct Listing: Decodable, Sendable {
        struct Entry: Decodable, Sendable {
            let name: String
            let savedAt: String
            let bytes: Int
        }
        let snapshots: [Entry]
    }

    /// Every service's snapshots, by service name.
    func listings() throws -> [String: [Listing.Entry]] {
        let listings = Mutex<[String: [Listing.Entry]]>([:])
        try each { service in
            let entries = try JSONDecoder().decode(Listing.self, from: Data(call(service, .get, "/_sandbox/snapshots"))).snapshots
            listings.withLock { $0[service.name] = entries }
        }
        return listings.withLock { $0 }
    }

    func list() throws {
        let listings = try listings()
        let names = Set(listings.values.flatMap { $0.map(\.name) }).sorted()
        guard !names.isEmpty else { return CommandMain.say("No snapshots yet: 'sandbox snapshot save NAME' saves one.") }
        var rows = [("NAME", "SAVED", "SERVICES", "BYTES")]
        for name in names {
            let parts = listings.values.compactMap { $0.first { $0.name == name } }
            let saved = parts.map(\.savedAt).max() ?? ""
            rows.append((name, saved, "\(parts.count) of \(services.count)", "\(parts.map(\.bytes).reduce(0, +))"))
        }
        let widths = [rows.map(\.0.count).max()!, rows.map(\.1.count).max()!, rows.map(\.2.count).max()!]
        for row in rows {
            CommandMain.say(
                row.0.padding(toLength: widths[0] + 2, withPad: " ", startingAt: 0) + row.1.padding(toLength: widths[1] + 2, withPad: " ", startingAt: 0)
                    + row.2.padding(toLength: widths[2] + 2, withPad: " ", startingAt: 0) + row.3)
        }
    }

    /// Saves every service's part; what to tell the tester.
    func save(_ name: String) throws -> String {
        let started = ContinuousClock.now
        try each { service in try call(service, .post, "/_sandbox/snapshots", body: ["name": name]) }
        return "Saved snapshot '\(name)' of \(services.count) services in \(SnapshotCommand.milliseconds(since: started)) ms."
    }

    /// Restores only when every service holds its part: a snapshot is brought back whole or not at all.
    func restore(_ name: String) throws -> String {
        let listings = try listings()
        let missing = services.filter { service in !(listings[service.name] ?? []).contains { $0.name == name } }.map(\.name)
        guard missing.isEmpty else {
            throw Failure(
                description: missing.count == services.count
                    ? "no snapshot named '\(name)' ('sandbox snapshot list' shows them); nothing was restored"
                    : "snapshot '\(name)' has no part for \(missing.joined(separator: ", ")) (saved before they ran?); nothing was restored")
        }
        let started = ContinuousClock.now
        try each { service in try call(service, .post, "/_sandbox/snapshots/\(name)/restore") }
        return "Restored snapshot '\(name)' on \(services.count) services in \(SnapshotCommand.milliseconds(since: started)) ms."
    }

    func delete(_ name: String) throws -> String {
        let listings = try listings()
        let holding = services.filter { service in (listings[service.name] ?? []).contains { $0.name == name } }
        guard !holding.isEmpty else { throw Failure(description: "no snapshot named '\(name)' ('sandbox snapshot list' shows them)") }
        for service in holding { try call(service, .delete, "/_sandbox/snapshots/\(name)") }
        return "Deleted snapshot '\(name)'."
    }
}
