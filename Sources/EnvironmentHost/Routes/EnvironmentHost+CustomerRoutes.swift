import HostRules
import HostStorage
import Foundation
import SandboxHTTP
import SandboxWire

/// The scripted customer (`/_sandbox/customer/{terminalId}`): what the customer does at a
/// terminal's next card screens, queued by a test (a UI test runs in another process than the
/// app, so it cannot hand the reader a script) and taken in order by the simulated reader of the
/// device on that terminal. Kept in the database: a snapshot keeps the queue and a reset empties it.
extension EnvironmentHost {
    struct CustomerQueue: Encodable {
        let terminalId: String
        let turns: [CustomerTurn]
    }

    static func addCustomerRoutes(to router: inout Router, _ lifecycle: Lifecycle, issuer: Issuer) {
        @Sendable func terminal(_ request: Request) throws -> String {
            let id = request.parameter("terminalId")
            guard lifecycle.directory.terminals[id] != nil else {
                throw HTTPError(status: 404, code: .terminalNotFound, message: "This region has no terminal \(id).", field: "terminalId")
            }
            return id
        }
        router.get("/_sandbox/customer/{terminalId}") { request in
            let id = try terminal(request)
            return .json(CustomerQueue(terminalId: id, turns: try lifecycle.store.read { db in try db.customers.queue(terminal: id) }))
        }
        router.post("/_sandbox/customer/{terminalId}") { request in
            let id = try terminal(request)
            let turn = try request.decode(CustomerTurn.self)
            if let members = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any],
                let unknown = members.keys.sorted().first(where: { !CustomerTurn.fields.contains($0) })
            {
                throw HTTPError.invalidRequest("\(unknown) is not a field of a turn (action, card, afterSeconds, pin, dccOfferAccepted).", field: unknown)
            }
            if let problem = turn.problem { throw HTTPError.invalidRequest(problem.message, field: problem.field) }
            if let card = turn.card, issuer.entry(named: card) == nil {
                throw HTTPError.invalidRequest("sandbox-data/cards.json has no card named '\(card)'.", field: "card")
            }
            let queue = try lifecycle.store.write { db in
                try db.customers.add(turn, terminal: id)
                return try db.customers.queue(terminal: id)
            }
            return .json(CustomerQueue(terminalId: id, turns: queue), status: 201)
        }
        router.delete("/_sandbox/customer/{terminalId}") { request in
            let id = try terminal(request)
            try lifecycle.store.write { db in try db.customers.clear(terminal: id) }
            return Response(status: 204)
        }
        // The simulated reader's call at each card screen: the next turn, with its card's entry.
        router.post("/_sandbox/customer/{terminalId}/next") { request in
            let id = try terminal(request)
            let turn = try lifecycle.store.write { db in try db.customers.take(terminal: id) }
            let entry = turn?.card.flatMap(issuer.entry(named:))
            var json = #"{"turn":"# + (try turn.map { String(decoding: try JSON.encode($0), as: UTF8.self) } ?? "null")
            json += #","cards":["# + (entry ?? "") + "]}"
            return .json(bytes: Array(json.utf8))
        }
    }
}
