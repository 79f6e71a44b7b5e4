import Foundation
import SandboxHTTP
import SandboxWire
import Synchronization
import Testing

@Suite struct RouterTests {
    struct Failure: Error {}

    let router: Router = {
        var router = Router()
        router.get("/v1/terminals/{id}") { request in .json(["id": request.parameter("id")]) }
        router.post("/v1/terminals/{id}") { request in .json(["posted": request.parameter("id")], status: 201) }
        router.get("/v1/terminals/{id}/transactions/{transaction}") { request in
            .json(["terminal": request.parameter("id"), "transaction": request.parameter("transaction")])
        }
        router.get("/v1/refuse") { _ in throw HTTPError(status: 409, code: .unrecognized("busy"), message: "Busy.", field: "terminal") }
        router.get("/v1/crash") { _ in throw Failure() }
        return router
    }()

    func json(_ response: Response) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test func matchesPathParameters() throws {
        let response = router.respond(to: Request(method: "GET", path: "/v1/terminals/T-42/transactions/tx9"))
        #expect(response.status == 200)
        #expect(try json(response) as? [String: String] == ["terminal": "T-42", "transaction": "tx9"])
    }

    @Test func picksTheRouteOfTheMethod() throws {
        let response = router.respond(to: Request(method: "POST", path: "/v1/terminals/T1"))
        #expect(response.status == 201)
        #expect(try json(response)["posted"] as? String == "T1")
    }

    @Test("a literal path wins over a parameter: GET on a POST-only action is 405, not a lookup of that id")
    func literalSegmentsWin() throws {
        var router = Router()
        router.get("/v1/transactions/{id}") { request in .json(["id": request.parameter("id")]) }
        router.post("/v1/transactions/sale") { _ in .json(["sold": "yes"], status: 201) }
        router.get("/v1/transactions/count") { _ in .json(["count": "3"]) }
        let get = router.respond(to: Request(method: "GET", path: "/v1/transactions/sale"))
        #expect(get.status == 405)
        #expect(get.header("Allow") == "POST")
        #expect(router.respond(to: Request(method: "POST", path: "/v1/transactions/sale")).status == 201)
        #expect(try json(router.respond(to: Request(method: "GET", path: "/v1/transactions/count")))["count"] as? String == "3")
        #expect(try json(router.respond(to: Request(method: "GET", path: "/v1/transactions/t-1")))["id"] as? String == "t-1")
    }

    @Test("empty segments do not count: a trailing or doubled slash names the same route, literal or with parameters")
    func emptySegmentsAreIgnored() throws {
        var router = router
        router.get("/") { _ in .text("root") }
        router.get("/v1/catalogue") { _ in .text("catalogue") }
        for path in ["/v1/catalogue", "/v1/catalogue/", "//v1//catalogue", "v1/catalogue"] {
            #expect(String(decoding: router.respond(to: Request(method: "GET", path: path)).body, as: UTF8.self) == "catalogue", "\(path)")
        }
        #expect(String(decoding: router.respond(to: Request(method: "GET", path: "/")).body, as: UTF8.self) == "root")
        #expect(try json(router.respond(to: Request(method: "GET", path: "/v1//terminals/T1/")))["id"] as? String == "T1")
        #expect(router.respond(to: Request(method: "DELETE", path: "/v1/catalogue/")).status == 405)
    }

    /// Found by `make fuzz`: a `/` followed by a combining mark (U+089F) or an emoji modifier (U+1F3FB)
    /// is one Swift Character with it, and splitting at `/` characters merged two segments, so a
    /// region named so answered the method list of another route (405).
    @Test("a segment that starts with a combining mark or an emoji modifier is still a segment", arguments: ["\u{1F3FB}", "\u{089F}U"])
    func segmentsSplitAtEverySlashScalar(_ id: String) throws {
        let response = router.respond(to: Request(method: "GET", path: "/v1/terminals/\(id)/transactions/tx9"))
        #expect(response.status == 200)
        #expect(try json(response) as? [String: String] == ["terminal": id, "transaction": "tx9"])
        #expect(router.respond(to: Request(method: "POST", path: "/v1/terminals/\(id)")).status == 201)
    }

    @Test func unknownPathIsA404Envelope() throws {
        let response = router.respond(to: Request(method: "GET", path: "/v1/nothing"))
        #expect(response.status == 404)
        let error = try #require(try json(response)["error"] as? [String: Any])
        #expect(error["code"] as? String == "not_found")
        #expect(error["message"] is String)
    }

    @Test func wrongMethodIsA405WithAllow() throws {
        let response = router.respond(to: Request(method: "DELETE", path: "/v1/terminals/T1"))
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, POST, HEAD")
        let error = try #require(try json(response)["error"] as? [String: Any])
        #expect(error["code"] as? String == "method_not_allowed")
    }

    @Test func headIsAnsweredByGet() {
        #expect(router.respond(to: Request(method: "HEAD", path: "/v1/terminals/T1")).status == 200)
    }

    @Test func thrownHTTPErrorBecomesItsEnvelope() throws {
        let response = router.respond(to: Request(method: "GET", path: "/v1/refuse"))
        #expect(response.status == 409)
        #expect(response.header("Content-Type") == "application/json")
        #expect(try json(response)["error"] as? [String: String] == ["code": "busy", "message": "Busy.", "field": "terminal"])
    }

    /// A module's own error type, as a rule would throw it.
    struct LedgerError: HTTPResponseError {
        let status: Int
        let code: ErrorCode
        let message: String
        let field: String?
        var headers: [(String, String)] { [("Retry-After", "3")] }
    }

    @Test("any error conforming to HTTPResponseError becomes its envelope, from a plain or a deferred route")
    func typedErrorsBecomeTheirEnvelope() throws {
        let reported = Mutex<[String]>([])
        var router = router
        router.onUnexpectedError = { request, _ in reported.withLock { $0.append(request.path) } }
        let closed = LedgerError(status: 423, code: .unrecognized("ledger_closed"), message: "The ledger is closed.", field: "ledger")
        router.get("/v1/ledger") { _ in throw closed }
        router.post("/v1/ledger", deferred: { _, reply in reply { .failure(closed) } })
        for method in ["GET", "POST"] {
            let response = router.respond(to: Request(method: method, path: "/v1/ledger"))
            #expect(response.status == 423)
            #expect(response.header("Retry-After") == "3")
            #expect(response.header("Content-Type") == "application/json")
            #expect(try json(response)["error"] as? [String: String] == ["code": "ledger_closed", "message": "The ledger is closed.", "field": "ledger"])
        }
        #expect(reported.withLock { $0 }.isEmpty)
    }

    @Test func otherErrorsAreA500WithoutDetail() throws {
        let response = router.respond(to: Request(method: "GET", path: "/v1/crash"))
        #expect(response.status == 500)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("Failure"))
        #expect((try json(response)["error"] as? [String: Any])?["code"] as? String == "internal_error")
    }

    @Test("a deferred route answers a caller that waits; its errors become envelopes as a plain route's do")
    func deferredRouteAnswersAWaitingCaller() throws {
        let reported = Mutex<[String]>([])
        var router = router
        router.onUnexpectedError = { request, _ in reported.withLock { $0.append(request.path) } }
        router.post("/v1/later/{outcome}", deferred: { request, reply in
            let outcome = request.parameter("outcome")
            if outcome == "thrown" { throw HTTPError(status: 422, code: .unrecognized("refused"), message: "Refused.") }
            // Answered from another thread, after the handler returned.
            Thread.detachNewThread {
                switch outcome {
                case "ok": reply { .success(.json(["outcome": "ok"], status: 201)) }
                case "busy": reply { .failure(HTTPError(status: 409, code: .unrecognized("busy"), message: "Busy.")) }
                default: reply { .failure(Failure()) }
                }
            }
        })
        let ok = router.respond(to: Request(method: "POST", path: "/v1/later/ok"))
        #expect(ok.status == 201)
        #expect(try json(ok)["outcome"] as? String == "ok")
        #expect(router.respond(to: Request(method: "POST", path: "/v1/later/busy")).status == 409)
        #expect(router.respond(to: Request(method: "POST", path: "/v1/later/thrown")).status == 422)
        let crashed = router.respond(to: Request(method: "POST", path: "/v1/later/crash"))
        #expect(crashed.status == 500)
        #expect(reported.withLock { $0 } == ["/v1/later/crash"])
        #expect(router.respond(to: Request(method: "GET", path: "/v1/later/ok")).status == 405)
    }

    @Test("a non-blocking route answers a caller directly; nil hands it to its fallback; errors become envelopes as elsewhere")
    func nonBlockingRouteAnswersACaller() throws {
        let reported = Mutex<[String]>([])
        var router = router
        router.onUnexpectedError = { request, _ in reported.withLock { $0.append(request.path) } }
        router.get("/v1/catalogue", .nonBlocking) { _ in .json(["catalogue": "EU"]) }
        router.get("/v1/session/{token}", .nonBlocking, { request in
            switch request.parameter("token") {
            case "cached": return .json(["from": "memory"])
            case "expired": throw HTTPError(status: 401, code: .sessionExpired, message: "Expired.")
            case "broken": throw Failure()
            default: return nil
            }
        }, orElse: { request in
            guard request.parameter("token") == "stored" else { throw HTTPError(status: 401, code: .unauthorized, message: "No.") }
            return .json(["from": "database"])
        })
        #expect(try json(router.respond(to: Request(method: "GET", path: "/v1/catalogue")))["catalogue"] as? String == "EU")
        #expect(router.respond(to: Request(method: "HEAD", path: "/v1/catalogue")).status == 200)
        #expect(router.respond(to: Request(method: "POST", path: "/v1/catalogue")).status == 405)
        #expect(try json(router.respond(to: Request(method: "GET", path: "/v1/session/cached")))["from"] as? String == "memory")
        #expect(try json(router.respond(to: Request(method: "GET", path: "/v1/session/stored")))["from"] as? String == "database")
        #expect(router.respond(to: Request(method: "GET", path: "/v1/session/unknown")).status == 401)
        #expect(router.respond(to: Request(method: "GET", path: "/v1/session/expired")).status == 401)
        #expect(router.respond(to: Request(method: "GET", path: "/v1/session/broken")).status == 500)
        #expect(reported.withLock { $0 } == ["/v1/session/broken"])
    }

    @Test func fallbackAnswersUnmatchedPaths() {
        struct Teapot: Responder {
            func respond(to request: Request) -> Response { Response(status: 418) }
        }
        var router = router
        router.fallback = Teapot()
        #expect(router.respond(to: Request(method: "GET", path: "/index.html")).status == 418)
        // A path a route owns still gets its 405 rather than the fallback.
        #expect(router.respond(to: Request(method: "PUT", path: "/v1/terminals/T1")).status == 405)
    }

    struct Sale: Decodable {
        let amount: Int
        let currency: String
    }

    @Test(arguments: [
        ("{\"currency\": \"EUR\"}", "amount"),
        ("{\"amount\": \"ten\", \"currency\": \"EUR\"}", "amount"),
        ("{\"amount\": 10, \"currency\": 978}", "currency"),
    ])
    func decodingErrorsNameTheField(body: String, field: String) throws {
        let request = Request(method: "POST", path: "/", headers: ["content-type": "application/json"], body: Array(body.utf8))
        #expect(throws: HTTPError.self) { try request.decode(Sale.self) }
        do {
            _ = try request.decode(Sale.self)
        } catch {
            #expect(error.status == 400)
            #expect(error.code.rawValue == "invalid_json")
            #expect(error.field == field)
        }
    }

    @Test func malformedJSONAndWrongContentTypeAreRefused() {
        let garbage = Request(method: "POST", path: "/", body: Array("{amount:".utf8))
        #expect(throws: HTTPError.self) { try garbage.decode(Sale.self) }
        let form = Request(
            method: "POST", path: "/", headers: ["content-type": "application/x-www-form-urlencoded"],
            body: Array("amount=1".utf8))
        #expect(throws: HTTPError.unsupportedMediaType) { try form.decode(Sale.self) }
    }
}

@Suite struct NumberRangeTests {
    struct Sale: Decodable {
        let amount: Int
        let currency: String
    }

    @Test(arguments: ["1e30", "9223372036854775808", "-9223372036854775809", "12.5"])
    func anUnrepresentableNumberNamesItsField(number: String) {
        let request = Request(
            method: "POST", path: "/", headers: ["content-type": "application/json"],
            body: Array(#"{"currency": "EUR", "amount": \#(number)}"#.utf8))
        do {
            _ = try request.decode(Sale.self)
            Issue.record("\(number) decoded")
        } catch {
            #expect(error.code.rawValue == "invalid_json")
            #expect(error.field == "amount")
        }
    }
}
