import Foundation
import SandboxHTTP
import SandboxHTTPClient
import SandboxWire
import Synchronization

/// The whole sandbox from the Sandbox page, in one call each (`/api/sandbox/…`): reset every region,
/// the wallet and the inbox together, and save, list, restore or delete a snapshot of all of them,
/// as `sandbox reset` and `sandbox snapshot` do. Every service is called at once; a snapshot is
/// restored only when every service holds its part.
extension PortalSimulator {
    /// One service of the sandbox the portal reaches: a host, the wallet or the inbox.
    struct ControlledService: Sendable {
        let name: String
        let url: String
    }

    /// Snapshots of big databases take seconds: sandbox control waits longer than the back office's calls.
    static let controlClient = HTTPClient(
        configuration: .init(connectTimeout: .seconds(1), totalTimeout: .seconds(300), userAgent: "TapSandbox-portal"))

    static func addSandboxRoutes(to router: inout Router, services: [ControlledService], client: HTTPClient = controlClient, controlKey: String?) {
        @Sendable func key(_ request: Request) -> String? { controlKey ?? request.header(ControlGate.header) }
        router.post("/api/sandbox/reset") { request in
            try each(services) { service in
                if service.name == "webhooks" {
                    try call(service, .delete, "/api/events", key: key(request), client: client)
                } else {
                    try call(service, .post, "/_sandbox/reset", key: key(request), client: client)
                }
            }
            return Response(status: 204)
        }
        router.get("/api/sandbox/snapshots") { request in
            let listings = try listings(services, key: key(request), client: client)
            let names = Set(listings.values.flatMap { $0.map(\.name) }).sorted()
            return .json(
                SnapshotList(
                    services: services.count,
                    snapshots: names.map { name in
                        let parts = listings.values.compactMap { $0.first { $0.name == name } }
                        return Summary(name: name, savedAt: parts.map(\.savedAt).max() ?? "", services: parts.count, bytes: parts.map(\.bytes).reduce(0, +))
                    }))
        }
        router.post("/api/sandbox/snapshots") { request in
            struct Body: Decodable { let name: String }
            let name = try request.decode(Body.self).name
            guard SnapshotShelf.isValid(name) else {
                throw HTTPError(
                    status: 400, code: .invalidRequest, message: "A snapshot name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.",
                    field: "name")
            }
            let body = Array(try JSONEncoder().encode(["name": name]))
            try each(services) { service in try call(service, .post, "/_sandbox/snapshots", body: body, key: key(request), client: client) }
            return .json(Outcome(name: name, services: services.count), status: 201)
        }
        router.post("/api/sandbox/snapshots/{name}/restore") { request in
            let name = try snapshotName(request)
            let listings = try listings(services, key: key(request), client: client)
            let missing = services.filter { service in !(listings[service.name] ?? []).contains { $0.name == name } }.map(\.name)
            if missing.count == services.count { throw notFound(name) }
            guard missing.isEmpty else {
                throw HTTPError(
                    status: 409, code: .snapshotMismatch,
                    message: "Snapshot '\(name)' has no part for \(missing.joined(separator: ", ")) (saved before they ran?): nothing was restored.")
            }
            try each(services) { service in try call(service, .post, "/_sandbox/snapshots/\(name)/restore", key: key(request), client: client) }
            return .json(Outcome(name: name, services: services.count))
        }
        router.delete("/api/sandbox/snapshots/{name}") { request in
            let name = try snapshotName(request)
            let listings = try listings(services, key: key(request), client: client)
            let holding = services.filter { service in (listings[service.name] ?? []).contains { $0.name == name } }
            guard !holding.isEmpty else { throw notFound(name) }
            try each(holding) { service in try call(service, .delete, "/_sandbox/snapshots/\(name)", key: key(request), client: client) }
            return Response(status: 204)
        }
    }

    /// A snapshot across the sandbox: when its newest part was saved, and how many services hold one.
    struct Summary: Encodable, Sendable {
        let name: String
        let savedAt: String
        let services: Int
        let bytes: Int
    }

    /// `GET /api/sandbox/snapshots`: how many services the sandbox has, and each snapshot.
    struct SnapshotList: Encodable, Sendable {
        let services: Int
        let snapshots: [Summary]
    }

    struct Outcome: Encodable, Sendable {
        let name: String
        let services: Int
    }

    private struct Listing: Decodable {
        struct Entry: Decodable, Sendable {
            let name: String
            let savedAt: String
            let bytes: Int
        }
        let snapshots: [Entry]
    }

    private static func snapshotName(_ request: Request) throws(HTTPError) -> String {
        let name = request.parameter("name")
        guard SnapshotShelf.isValid(name) else { throw notFound(name) }
        return name
    }

    private static func notFound(_ name: String) -> HTTPError {
        HTTPError(status: 404, code: .snapshotNotFound, message: "No snapshot named '\(name)' in this sandbox.")
    }

    private static func listings(_ services: [ControlledService], key: String?, client: HTTPClient) throws -> [String: [Listing.Entry]] {
        let found = Mutex<[String: [Listing.Entry]]>([:])
        try each(services) { service in
            let body = try call(service, .get, "/_sandbox/snapshots", key: key, client: client)
            guard let listing = try? JSONDecoder().decode(Listing.self, from: Data(body)) else { throw unavailable(service) }
            found.withLock { $0[service.name] = listing.snapshots }
        }
        return found.withLock { $0 }
    }

    /// Runs `body` for every service at once; the first failure, in the services' order, is thrown.
    private static func each(_ services: [ControlledService], _ body: @Sendable (ControlledService) throws -> Void) throws {
        let failures = Mutex<[Int: any Error]>([:])
        DispatchQueue.concurrentPerform(iterations: services.count) { index in
            do { try body(services[index]) } catch { failures.withLock { $0[index] = error } }
        }
        if let first = failures.withLock({ $0.min { $0.key < $1.key } }) { throw first.value }
    }

    /// One control call of a service: its body on a 2xx; its own refusal (4xx) as the portal's
    /// answer, its message naming it; a failure or no answer as 502.
    @discardableResult
    private static func call(
        _ service: ControlledService, _ method: HTTPClientRequest.Method, _ path: String, body: [UInt8] = [], key: String?, client: HTTPClient
    ) throws -> [UInt8] {
        var headers: HTTPClientHeaders = [:]
        if method != .get { headers.add(name: "Content-Type", value: "application/json") }
        if let key { headers.add(name: ControlGate.header, value: key) }
        guard let response = try? client.send(HTTPClientRequest(method: method, url: service.url + path, headers: headers, body: body)),
            response.status < 500
        else { throw unavailable(service) }
        guard (200..<300).contains(response.status) else {
            let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: Data(response.body))
            throw HTTPError(
                status: response.status, code: envelope?.error.code ?? .invalidRequest,
                message: "\(service.name): \(envelope?.error.message ?? "answered \(response.status)")", field: envelope?.error.field)
        }
        return response.body
    }

    private static func unavailable(_ service: ControlledService) -> HTTPError {
        HTTPError(status: 502, code: .environmentUnavailable, message: "The \(service.name) service does not answer.")
    }
}
