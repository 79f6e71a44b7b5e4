import Foundation
import SandboxHTTPClient
import SandboxWire
import Synchronization

/// Every service of a running sandbox that keeps state (each host, the wallet, the webhook inbox),
/// for what goes to all of them at once: one reset, and snapshots saved, listed, restored and
/// deleted whole. `sandbox reset`, `sandbox snapshot`, `sandbox up --import/--export-on-exit`,
/// `sandbox seed` and the portal's **Whole sandbox** all call through it.
///
/// ```swift
/// let control = SandboxControl(try EndpointsFile.load(from: URL(fileURLWithPath: ".sandbox/endpoints.json")))
/// try control.save("before-checkout")
/// try control.restore("before-checkout")   // only when every service holds its part
/// try control.reset()
/// ```
public struct SandboxControl: Sendable {
    /// One service: its name (`EU`, `wallet`, `webhooks`) and base URL.
    public struct Service: Sendable, Equatable {
        public let name: String
        public let url: String

        public init(name: String, url: String) {
            self.name = name
            self.url = url
        }
    }

    /// Each host, then the wallet and the inbox: the order of saves, restores and of the failures told.
    public let services: [Service]
    /// Sent as `X-Sandbox-Control-Key` with every call, when the sandbox has one.
    public let controlKey: String?
    private let client: HTTPClient
    private let timeout: Duration

    /// The services an `endpoints.json` names.
    public init(_ endpoints: EndpointsFile, client: HTTPClient = HTTPClient(), timeout: Duration = .seconds(30)) {
        var services = endpoints.environments.sorted { $0.key < $1.key }.map { Service(name: $0.key, url: $0.value) }
        if let wallet = endpoints.wallet { services.append(Service(name: "wallet", url: wallet)) }
        if let inbox = endpoints.webhooks { services.append(Service(name: Self.inbox, url: inbox)) }
        self.init(services: services, controlKey: endpoints.controlKey, client: client, timeout: timeout)
    }

    public init(services: [Service], controlKey: String?, client: HTTPClient = HTTPClient(), timeout: Duration = .seconds(30)) {
        self.services = services
        self.controlKey = controlKey
        self.client = client
        self.timeout = timeout
    }

    /// The webhook inbox's name among the services: it resets by emptying its events.
    public static let inbox = "webhooks"

    // MARK: - Calls

    /// One service's refusal (its status and error envelope) or silence (no status).
    public struct Failure: Error, CustomStringConvertible {
        public let service: Service
        /// The status it answered; nil when it did not answer.
        public let status: Int?
        public let envelope: ErrorEnvelope?
        /// `EU: 404 snapshot_not_found: …`, or `EU at http://… did not answer (…): is the sandbox still running?`.
        public let description: String
    }

    /// What went wrong across the services of one ``each(_:_:)``, in the services' order.
    public struct Failures: Error, CustomStringConvertible {
        public let errors: [any Error]
        public var description: String { errors.map { "\($0)" }.sorted().joined(separator: "\n") }
    }

    /// One control call: the body of a 2xx answer, else a ``Failure``.
    @discardableResult
    public func call(_ service: Service, _ method: HTTPClientRequest.Method, _ path: String, bytes: [UInt8] = []) throws(Failure) -> [UInt8] {
        var headers: HTTPClientHeaders = ["Content-Type": "application/json"]
        if let controlKey { headers.add(name: "X-Sandbox-Control-Key", value: controlKey) }
        let url = (service.url.hasSuffix("/") ? String(service.url.dropLast()) : service.url) + path
        let response: HTTPClientResponse
        do {
            response = try client.send(HTTPClientRequest(method: method, url: url, headers: headers, body: bytes, timeout: timeout))
        } catch {
            throw Failure(
                service: service, status: nil, envelope: nil,
                description: "\(service.name) at \(service.url) did not answer (\(error)): is the sandbox still running?")
        }
        guard (200..<300).contains(response.status) else {
            let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: Data(response.body))
            let said = envelope.map { "\($0.error.code.rawValue): \($0.error.message ?? "")" } ?? String(decoding: response.body, as: UTF8.self)
            throw Failure(service: service, status: response.status, envelope: envelope, description: "\(service.name): \(response.status) \(said)")
        }
        return response.body
    }

    /// Runs `body` for each of `services` (every service by default) at once; each answers for its
    /// own part. Every failure is thrown together, in the services' order.
    public func each(_ services: [Service]? = nil, _ body: @Sendable (Service) throws -> Void) throws(Failures) {
        let chosen = services ?? self.services
        let failures = Mutex<[Int: any Error]>([:])
        DispatchQueue.concurrentPerform(iterations: chosen.count) { index in
            do { try body(chosen[index]) } catch { failures.withLock { $0[index] = error } }
        }
        let failed = failures.withLock { $0 }
        guard failed.isEmpty else { throw Failures(errors: failed.sorted { $0.key < $1.key }.map(\.value)) }
    }

    // MARK: - The whole sandbox

    /// Every region back to its fixtures, the wallet to `wallet.json`, the inbox emptied.
    public func reset() throws(Failures) {
        try each { service in
            if service.name == Self.inbox {
                try call(service, .delete, "/api/events")
            } else {
                try call(service, .post, "/_sandbox/reset")
            }
        }
    }

    /// One service's part of a snapshot.
    public struct SnapshotPart: Decodable, Sendable, Equatable {
        public let name: String
        public let savedAt: String
        public let bytes: Int
    }

    /// A snapshot across the sandbox: when its newest part was saved, how many services hold a part, their bytes.
    public struct Snapshot: Encodable, Sendable, Equatable {
        public let name: String
        public let savedAt: String
        public let services: Int
        public let bytes: Int
    }

    /// Every service's snapshot parts, by service name.
    public func parts() throws(Failures) -> [String: [SnapshotPart]] {
        struct Listing: Decodable { let snapshots: [SnapshotPart] }
        let found = Mutex<[String: [SnapshotPart]]>([:])
        try each { service in
            let listing = try JSONDecoder().decode(Listing.self, from: Data(call(service, .get, "/_sandbox/snapshots")))
            found.withLock { $0[service.name] = listing.snapshots }
        }
        return found.withLock { $0 }
    }

    /// The snapshots, by name.
    public func snapshots() throws(Failures) -> [Snapshot] {
        let parts = try parts()
        return Set(parts.values.flatMap { $0.map(\.name) }).sorted().map { name in
            let held = parts.values.compactMap { $0.first { $0.name == name } }
            return Snapshot(name: name, savedAt: held.map(\.savedAt).max() ?? "", services: held.count, bytes: held.map(\.bytes).reduce(0, +))
        }
    }

    /// A snapshot some service lacks: none holds it (`missing` is every service), or it was saved
    /// before some of them ran. Nothing was changed.
    public struct SnapshotAbsent: Error {
        public let name: String
        public let missing: [String]
        /// No service holds it.
        public let nowhere: Bool
    }

    /// Saves every service's part under `name` (one saved before under it is replaced).
    public func save(_ name: String) throws(Failures) {
        let body = (try? JSONEncoder().encode(["name": name])).map(Array.init) ?? []
        try each { service in try call(service, .post, "/_sandbox/snapshots", bytes: body) }
    }

    /// Brings every service back to its part of `name`, only when every service holds one: a
    /// snapshot comes back whole or not at all.
    public func restore(_ name: String) throws {
        let parts = try parts()
        let missing = services.filter { service in !(parts[service.name] ?? []).contains { $0.name == name } }.map(\.name)
        guard missing.isEmpty else { throw SnapshotAbsent(name: name, missing: missing, nowhere: missing.count == services.count) }
        try each { service in try call(service, .post, "/_sandbox/snapshots/\(name)/restore") }
    }

    /// Deletes every part of `name`.
    public func delete(_ name: String) throws {
        let parts = try parts()
        let holding = services.filter { service in (parts[service.name] ?? []).contains { $0.name == name } }
        guard !holding.isEmpty else { throw SnapshotAbsent(name: name, missing: services.map(\.name), nowhere: true) }
        try each(holding) { service in try call(service, .delete, "/_sandbox/snapshots/\(name)") }
    }
}
