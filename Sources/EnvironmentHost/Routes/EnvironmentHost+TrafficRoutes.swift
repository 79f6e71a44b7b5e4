import HostRules
import HostStorage
import SandboxHTTP
import SandboxWire

/// The request journal on the back-office API (`/backoffice/v1/requests`) and the faults on the
/// sandbox-control API (`/_sandbox/faults`).
extension EnvironmentHost {
    /// The part of the API a path belongs to, as the journal and faults name it.
    @Sendable static func surface(_ path: String) -> String {
        if path.hasPrefix("/terminal/") { return "terminal" }
        if path.hasPrefix("/merchant/") { return "merchant" }
        if path.hasPrefix("/backoffice/") { return "backoffice" }
        if path.hasPrefix("/_sandbox/") { return "sandbox" }
        if path.hasPrefix("/receipts/") { return "receipts" }
        if path.hasPrefix("/provider/") { return "provider" }
        if path.hasPrefix("/v1/pos/") || path.hasPrefix("/v1/payments/") { return "monei" }
        return "catalogue"
    }

    /// The journal's and the faults' own API, and the scripted customer (which the simulated
    /// reader asks at every card screen, not the app): never kept, never faulted (reading the
    /// journal would otherwise fill it).
    @Sendable static func isTrafficControl(_ path: String) -> Bool {
        path.hasPrefix("/backoffice/v1/requests") || path.hasPrefix("/_sandbox/faults") || path.hasPrefix("/_sandbox/customer/")
    }

    struct JournalPage: Encodable {
        let requests: [JournalEntry]
        let capturesBodies: Bool
        /// Entries kept per surface.
        let capacity: Int
    }

    static func addTrafficRoutes(to router: inout Router, journal: RequestJournal, faults: FaultPlan, key: String) {
        router.group("/backoffice/v1", middleware: backOfficeKey(key)) { backOffice in
            backOffice.get("/requests") { request, _ in
                .json(JournalPage(requests: journal.entries(try journalFilter(request.query)), capturesBodies: journal.capturesBodies, capacity: journal.capacity))
            }
            backOffice.get("/requests/{requestId}") { request, _ in
                guard let entry = journal.entry(id: request.parameter("requestId")) else {
                    throw HTTPError(status: 404, code: .requestNotFound, message: "The journal keeps no request with that id.", field: "requestId")
                }
                return .json(entry)
            }
            backOffice.delete("/requests") { _, _ in
                journal.clear()
                return Response(status: 204)
            }
            backOffice.put("/requests/capture") { request, _ in
                struct Body: Decodable { let bodies: Bool }
                try journal.capture(bodies: request.decode(Body.self).bodies)
                return .json(["capturesBodies": journal.capturesBodies])
            }
        }
        router.get("/_sandbox/faults") { _ in .json(["faults": faults.list()]) }
        router.post("/_sandbox/faults") { request in
            let fault = try request.decode(Fault.self)
            if let problem = fault.problem { throw HTTPError.invalidRequest(problem.message, field: problem.field) }
            return .json(try faults.add(fault), status: 201)
        }
        router.delete("/_sandbox/faults/{faultId}") { request in
            guard try faults.remove(id: request.parameter("faultId")) else {
                throw HTTPError(status: 404, code: .faultNotFound, message: "No fault with that id is set.", field: "faultId")
            }
            return Response(status: 204)
        }
        router.delete("/_sandbox/faults") { _ in
            try faults.clear()
            return Response(status: 204)
        }
    }

    /// The journal's filter from the query: `surface`, `method`, `status`, `failed=true`, `path`
    /// (contained), `subject`, `code`, `limit` (1 to 1000, 100 by default).
    static func journalFilter(_ query: [String: String]) throws(HTTPError) -> RequestJournal.Filter {
        func nonEmpty(_ name: String) -> String? { query[name].flatMap { $0.isEmpty ? nil : $0 } }
        let limit = Int(query["limit"] ?? "100") ?? 0
        guard (1...1000).contains(limit) else {
            throw HTTPError.invalidRequest("limit must be a whole number from 1 to 1000.", field: "query.limit")
        }
        var status: Int?
        if let text = nonEmpty("status") {
            guard let value = Int(text), (100...599).contains(value) else {
                throw HTTPError.invalidRequest("status must be an HTTP status such as 409.", field: "query.status")
            }
            status = value
        }
        guard ["", "true", "false"].contains(query["failed"] ?? "") else {
            throw HTTPError.invalidRequest("failed must be true or false.", field: "query.failed")
        }
        return RequestJournal.Filter(
            surface: nonEmpty("surface"), method: nonEmpty("method")?.uppercased(), status: status, failedOnly: query["failed"] == "true",
            pathContains: nonEmpty("path"), subject: nonEmpty("subject"), errorCode: nonEmpty("code"), limit: limit)
    }
}
