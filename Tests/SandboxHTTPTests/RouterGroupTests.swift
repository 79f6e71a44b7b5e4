import Foundation
import SandboxHTTP
import SandboxWire
import Synchronization
import Testing

/// Route groups: a prefix and a middleware that runs before each of the group's handlers.
@Suite struct RouterGroupTests {
    /// What the middleware and handlers did, in order.
    final class Trace: Sendable {
        private let steps = Mutex<[String]>([])
        func append(_ step: String) { steps.withLock { $0.append(step) } }
        var all: [String] { steps.withLock { $0 } }
    }

    let trace = Trace()

    /// `/v1/shop/...` behind a key check that hands the handlers the shop the key names.
    var router: Router {
        var router = Router()
        let trace = trace
        let shopOfKey = Middleware<String> { request in
            trace.append("middleware")
            guard let key = request.header("authorization"), key.hasPrefix("key-") else {
                throw HTTPError(status: 401, code: .unauthorized, message: "Missing or wrong credentials.", field: "header.Authorization")
            }
            return String(key.dropFirst(4))
        }
        router.group("/v1/shop", middleware: shopOfKey) { shop in
            shop.get("/orders/{id}") { request, name in
                trace.append("handler")
                return .json(["shop": name, "order": request.parameter("id")])
            }
            shop.post("/orders") { _, name in .json(["created for": name], status: 201) }
            shop.post("/payments", deferred: { _, name, reply in
                Thread.detachNewThread { reply { .success(.json(["paid to": name], status: 202)) } }
            })
            shop.get("/catalogue", .nonBlocking) { _, name in .json(["catalogue of": name]) }
            shop.get("") { _, name in .json(["home of": name]) }
        }
        return router
    }

    func json(_ response: Response) throws -> [String: String] {
        try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String])
    }

    func request(_ method: String, _ path: String, key: String? = "key-corner") -> Request {
        Request(method: method, path: path, headers: key.map { ["authorization": $0] } ?? [:])
    }

    @Test("the middleware runs before the handler, which gets what it found; every route kind of a group does")
    func middlewareRunsFirstAndHandsItsValue() throws {
        let router = router
        let order = router.respond(to: request("GET", "/v1/shop/orders/o-7"))
        #expect(order.status == 200)
        #expect(try json(order) == ["shop": "corner", "order": "o-7"])
        #expect(trace.all == ["middleware", "handler"])
        #expect(try json(router.respond(to: request("POST", "/v1/shop/orders"))) == ["created for": "corner"])
        let paid = router.respond(to: request("POST", "/v1/shop/payments"))
        #expect(paid.status == 202)
        #expect(try json(paid) == ["paid to": "corner"])
        #expect(try json(router.respond(to: request("GET", "/v1/shop/catalogue"))) == ["catalogue of": "corner"])
        #expect(try json(router.respond(to: request("GET", "/v1/shop"))) == ["home of": "corner"])
    }

    @Test("a middleware's refusal is the answer, in the envelope, and no handler runs", arguments: [
        ("GET", "/v1/shop/orders/o-7"), ("POST", "/v1/shop/orders"), ("POST", "/v1/shop/payments"), ("GET", "/v1/shop/catalogue"),
    ])
    func refusalShortCircuits(method: String, path: String) throws {
        let response = router.respond(to: request(method, path, key: "wrong"))
        #expect(response.status == 401)
        let body = try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: [String: String]])
        #expect(body == ["error": ["code": "unauthorized", "message": "Missing or wrong credentials.", "field": "header.Authorization"]])
        #expect(trace.all == ["middleware"])
    }

    @Test("a group's paths get the router's own 405 (with Allow), HEAD and 404, and 404/405 come before the middleware")
    func groupRoutesKeepTheRoutersAnswers() throws {
        let router = router
        let wrongMethod = router.respond(to: request("DELETE", "/v1/shop/orders/o-7", key: nil))
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "GET, HEAD")
        #expect(router.respond(to: request("GET", "/v1/shop/orders", key: nil)).header("Allow") == "POST")
        let unknown = router.respond(to: request("GET", "/v1/shop/nothing", key: nil))
        #expect(unknown.status == 404)
        #expect(try #require(JSONSerialization.jsonObject(with: Data(unknown.body)) as? [String: [String: String]])["error"]?["code"] == "not_found")
        #expect(trace.all.isEmpty)
        let head = router.respond(to: request("HEAD", "/v1/shop/orders/o-7"))
        #expect(head.status == 200)
        #expect(trace.all == ["middleware", "handler"])
    }

    @Test("a non-blocking group route whose middleware cannot answer from memory runs it and the handler on the blocking path")
    func nonBlockingMiddlewareFallsBack() throws {
        let steps = Mutex<[String]>([])
        let session = Middleware<String>(nonBlocking: { request in
            steps.withLock { $0.append("memory") }
            return request.header("authorization") == "cached" ? "from memory" : nil
        }, orElse: { request in
            steps.withLock { $0.append("database") }
            guard request.header("authorization") == "stored" else { throw HTTPError(status: 401, code: .unauthorized, message: "No.") }
            return "from the database"
        })
        var router = Router()
        router.group("/v1/terminal", middleware: session) { terminal in
            terminal.get("/me", .nonBlocking) { _, found in .json(["session": found]) }
            terminal.get("/history") { _, found in .json(["session": found]) }
        }
        #expect(try json(router.respond(to: request("GET", "/v1/terminal/me", key: "cached"))) == ["session": "from memory"])
        #expect(steps.withLock { $0 } == ["memory"])
        #expect(try json(router.respond(to: request("GET", "/v1/terminal/me", key: "stored"))) == ["session": "from the database"])
        #expect(router.respond(to: request("GET", "/v1/terminal/me", key: "other")).status == 401)
        // A plain route takes the blocking path at once.
        #expect(try json(router.respond(to: request("GET", "/v1/terminal/history", key: "stored"))) == ["session": "from the database"])
        #expect(steps.withLock { $0 } == ["memory", "memory", "database", "memory", "database", "database"])
    }
}
