import Foundation
import SandboxHTTP
import SandboxControl
import SandboxHTTPClient
import SandboxWire

/// The whole sandbox from the Sandbox page, in one call each (`/api/sandbox/…`): reset every region,
/// the wallet and the inbox together, and save, list, restore or delete a snapshot of all of them,
/// as `sandbox reset` and `sandbox snapshot` do. Every service is called at once; a snapshot is
/// restored only when every service holds its part.
extension PortalSimulator {
    /// One service of the sandbox the portal reaches: a host, the wallet or the inbox.
    typealias ControlledService = SandboxControl.Service

    /// Snapshots of big databases take seconds: sandbox control waits longer than the back office's calls.
    static let controlClient = HTTPClient(
        configuration: .init(connectTimeout: .seconds(1), totalTimeout: .seconds(300), userAgent: "TapSandbox-portal"))

    static func addSandboxRoutes(to router: inout Router, services: [ControlledService], client: HTTPClient = controlClient, controlKey: String?) {
        /// The services with the key the call goes with: the portal's own, else the page's.
        @Sendable func control(_ request: Request) -> SandboxControl {
            SandboxControl(services: services, controlKey: controlKey ?? request.header(ControlGate.header), client: client, timeout: .seconds(300))
        }
        router.post("/api/sandbox/reset") { request in
            try answering { try control(request).reset() }
            return Response(status: 204)
        }
        router.get("/api/sandbox/snapshots") { request in
            .json(SnapshotList(services: services.count, snapshots: try answering { try control(request).snapshots() }))
        }
        router.post("/api/sandbox/snapshots") { request in
            struct Body: Decodable { let name: String }
            let name = try request.decode(Body.self).name
            guard SnapshotShelf.isValid(name) else {
                throw HTTPError(
                    status: 400, code: .invalidRequest, message: "A snapshot name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.",
                    field: "name")
            }
            try answering { try control(request).save(name) }
            return .json(Outcome(name: name, services: services.count), status: 201)
        }
        router.post("/api/sandbox/snapshots/{name}/restore") { request in
            let name = try snapshotName(request)
            try answering { try control(request).restore(name) }
            return .json(Outcome(name: name, services: services.count))
        }
        router.delete("/api/sandbox/snapshots/{name}") { request in
            let name = try snapshotName(request)
            try answering { try control(request).delete(name) }
            return Response(status: 204)
        }
    }

    /// `GET /api/sandbox/snapshots`: how many services the sandbox has, and each snapshot.
    struct SnapshotList: Encodable, Sendable {
        let services: Int
        let snapshots: [SandboxControl.Snapshot]
    }

    struct Outcome: Encodable, Sendable {
        let name: String
        let services: Int
    }

    private static func snapshotName(_ request: Request) throws(HTTPError) -> String {
        let name = request.parameter("name")
        guard SnapshotShelf.isValid(name) else { throw notFound(name) }
        return name
    }

    private static func notFound(_ name: String) -> HTTPError {
        HTTPError(status: 404, code: .snapshotNotFound, message: "No snapshot named '\(name)' in this sandbox.")
    }

    /// `body`'s answer, its failures in the portal's words: a service's refusal (4xx) is the
    /// portal's answer, its message naming the service; a failure or no answer is 502; the first
    /// in the services' order is told.
    private static func answering<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let absent as SandboxControl.SnapshotAbsent {
            if absent.nowhere { throw notFound(absent.name) }
            throw HTTPError(
                status: 409, code: .snapshotMismatch,
                message: "Snapshot '\(absent.name)' has no part for \(absent.missing.joined(separator: ", ")) (saved before they ran?): nothing was restored.")
        } catch let failures as SandboxControl.Failures {
            guard let failure = failures.errors.first as? SandboxControl.Failure else {
                throw HTTPError(status: 502, code: .environmentUnavailable, message: "A service answered what the portal cannot read: \(failures).")
            }
            guard let status = failure.status, status < 500 else {
                throw HTTPError(status: 502, code: .environmentUnavailable, message: "The \(failure.service.name) service does not answer.")
            }
            throw HTTPError(
                status: status, code: failure.envelope?.error.code ?? .invalidRequest,
                message: "\(failure.service.name): \(failure.envelope?.error.message ?? "answered \(status)")", field: failure.envelope?.error.field)
        }
    }
}
