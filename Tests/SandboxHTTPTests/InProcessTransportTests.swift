import Foundation
import SandboxHTTP
import SandboxTestSupport
import Testing

/// The test-support `Service` answered by a responder in this process: the request reaches the
/// route as the server would shape it, with no socket (the base URL's port has no server).
@Suite("In-process transport of the test Service")
struct InProcessTransportTests {
    static let service: Service = {
        var router = Router()
        router.get("/items/{id}") { request in
            .json([
                "id": request.parameter("id"), "path": request.path, "query": request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";"),
                "trace": request.header("x-trace") ?? "", "host": request.header("host") ?? "", "client": request.clientAddress ?? "",
            ])
        }
        router.post("/echo") { request in
            Response(status: 201, headers: [("Content-Type", "application/octet-stream")], body: request.body)
        }
        router.post("/drop") { _ in
            var response = Response(status: 200)
            response.dropsConnection = true
            return response
        }
        // Port 9 (discard): nothing of this suite listens there, so an answer came in process.
        return Service(name: "test", baseURL: "http://127.0.0.1:9", responder: router)
    }()

    @Test("path and query are decoded as the server decodes them; header names are case-blind, repeats joined; the client is 127.0.0.1")
    func requestShape() {
        let reply = Self.service.call(
            "GET", "/items/a%20b?x=1+2&y=%C3%A9&flag", headers: [("X-Trace", "one"), ("x-trace", "two")])
        #expect(reply.status == 200, "\(reply)")
        #expect(reply.string("id") == "a b" && reply.string("path") == "/items/a b", "\(reply)")
        #expect(reply.string("query") == "flag=;x=1 2;y=é", "\(reply)")
        #expect(reply.string("trace") == "one, two", "\(reply)")
        #expect(reply.string("host") == "127.0.0.1:9" && reply.string("client") == "127.0.0.1", "\(reply)")
        #expect(reply.header("X-Request-Id")?.hasPrefix("inproc_") == true, "\(reply.headers)")
    }

    @Test("a body goes and comes back byte for byte, with its length; a dropped connection is a transport error")
    func bodiesAndDrops() async {
        let reply = await Self.service.call("POST", "/echo", raw: "{\"a\":1}")
        #expect(reply.status == 201 && reply.text == "{\"a\":1}", "\(reply)")
        #expect(reply.header("Content-Length") == "7", "\(reply.headers)")
        let dropped = await Self.service.call("POST", "/drop")
        #expect(dropped.status == 0 && dropped.text.hasPrefix("transport error"), "\(dropped)")
    }

    @Test("overHTTP is the same service over a socket: here nothing listens, so it fails to connect")
    func overHTTPUsesTheSocket() {
        #expect(Self.service.overHTTP.call("GET", "/items/1").status == 0)
    }
}
