import Foundation
import SandboxCore
import SandboxWire
@testable import SandboxHTTP
import Synchronization
import Testing
import SandboxTestSupport

/// The server on a real socket: limits, malformed input, keep-alive, request ids, logging, stop.
@Suite(.blocksThreads) struct ServerTests {
    static func router() -> Router {
        var router = Router()
        router.get("/healthz") { _ in .json(["status": "ok"]) }
        router.post("/echo") { request in
            Response(status: 200, headers: [("Content-Type", "application/octet-stream")], body: request.body)
        }
        router.get("/slow") { _ in
            usleep(300_000)
            return .text("done")
        }
        router.get("/query") { request in .json(request.query) }
        return router
    }

    func start(_ configuration: ServerConfiguration = ServerConfiguration(maxBodyBytes: 1024), log: AccessLog? = nil) throws -> Server {
        let server = Server(name: "test", configuration: configuration, responder: Self.router(), accessLog: log)
        try server.start()
        return server
    }

    @Test("handlers that wait hold no polling thread: with one poller and three waiting, another connection is answered")
    func waitingHandlerHoldsNoPoller() throws {
        let release = DispatchSemaphore(value: 0)
        var router = Self.router()
        router.get("/wait") { _ in
            // Bounded, so a server that answers on its poller fails the test instead of hanging it.
            let released = release.wait(timeout: .now() + .seconds(60)) == .success
            return .text(released ? "released" : "never released")
        }
        let server = Server(name: "test", configuration: ServerConfiguration(pollingThreads: 1), responder: router)
        try server.start()
        defer { server.stop() }
        let waiting = try (0..<3).map { _ in try RawConnection(port: server.port) }
        for connection in waiting { try connection.send("GET /wait HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
        // While they wait, another connection is served by the one polling thread.
        let other = try RawConnection(port: server.port, timeoutSeconds: 5)
        try other.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try other.readResponse().status == 200)
        for _ in waiting { release.signal() }
        for connection in waiting {
            let answer = try connection.readResponse()
            #expect(answer.status == 200)
            #expect(answer.text == "released")
        }
    }

    @Test(
        "a non-blocking route answers on the polling thread: while it holds the one poller, no other connection is served",
        arguments: [false, true])
    func nonBlockingRouteRunsOnThePoller(inGroup: Bool) throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        var router = Self.router()
        @Sendable func hold() -> Response {
            entered.signal()
            // Only another request can release it. On the poller, that request is not read until
            // this returns, so the wait runs out; on a handler thread it would be released.
            let released = release.wait(timeout: .now() + .seconds(1)) == .success
            return .text(released ? "released by another connection" : "held the poller")
        }
        if inGroup {
            // The group's middleware runs on the poller too, before the handler.
            router.group("/held", middleware: Middleware<Void> { _ in }) { group in group.get("", .nonBlocking) { _, _ in hold() } }
        } else {
            router.get("/held", .nonBlocking) { _ in hold() }
        }
        router.get("/release") { _ in
            release.signal()
            return .text("released")
        }
        let server = Server(name: "test", configuration: ServerConfiguration(pollingThreads: 1), responder: router)
        try server.start()
        defer { server.stop() }
        let holding = try RawConnection(port: server.port)
        try holding.send("GET /held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(entered.wait(timeout: .now() + .seconds(60)) == .success)
        let other = try RawConnection(port: server.port)
        try other.send("GET /release HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let held = try holding.readResponse()
        #expect(held.status == 200)
        #expect(held.text == "held the poller")
        #expect(try other.readResponse().text == "released")
    }

    @Test(
        "a non-blocking route that returns nil (or whose group's middleware does) is answered on a handler thread, where waiting holds no poller",
        arguments: [false, true])
    func nonBlockingRouteFallsBackToAHandlerThread(inGroup: Bool) throws {
        let release = DispatchSemaphore(value: 0)
        var router = Self.router()
        @Sendable func wait() -> Response {
            let released = release.wait(timeout: .now() + .seconds(60)) == .success
            return .text(released ? "on a handler thread" : "never released")
        }
        if inGroup {
            let middleware = Middleware<Bool>(nonBlocking: { request in request.query["inline"] != nil ? true : nil }, orElse: { _ in false })
            router.group("/maybe", middleware: middleware) { group in
                group.get("", .nonBlocking) { _, inline in inline ? .text("inline") : wait() }
            }
        } else {
            router.get("/maybe", .nonBlocking, { request in
                request.query["inline"] != nil ? .text("inline") : nil
            }, orElse: { _ in wait() })
        }
        router.get("/release") { _ in
            release.signal()
            return .text("released")
        }
        let server = Server(name: "test", configuration: ServerConfiguration(pollingThreads: 1), responder: router)
        try server.start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        try connection.send("GET /maybe?inline=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try connection.readResponse().text == "inline")
        try connection.send("GET /maybe HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        // The fallback waits on its own thread: the one poller reads the request that releases it.
        let other = try RawConnection(port: server.port)
        try other.send("GET /release HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try other.readResponse().text == "released")
        #expect(try connection.readResponse().text == "on a handler thread")
    }

    /// A router with a deferred route whose answers the test gives from its own thread.
    final class Pending: @unchecked Sendable {
        private let lock = NSCondition()
        private var replies: [Reply] = []

        func add(_ reply: @escaping Reply) {
            lock.lock()
            replies.append(reply)
            lock.broadcast()
            lock.unlock()
        }

        /// The oldest reply not given yet, once there is one (nil after 10 s).
        func next() -> Reply? {
            lock.lock()
            defer { lock.unlock() }
            let deadline = Date().addingTimeInterval(60)
            while replies.isEmpty { if !lock.wait(until: deadline) { return nil } }
            return replies.removeFirst()
        }
    }

    func deferredRouter(_ pending: Pending) -> Router {
        var router = Self.router()
        router.post("/later", deferred: { request, reply in
            if request.query["refuse"] != nil { throw HTTPError(status: 400, code: .unrecognized("refused"), message: "Refused before the work started.") }
            if request.query["now"] != nil { return reply { .success(.text("at once")) } }
            pending.add(reply)
        })
        return router
    }

    @Test("a deferred route is answered from another thread later; the connection stays open for the next request")
    func deferredAnswerComesLater() throws {
        let pending = Pending()
        let server = Server(name: "test", configuration: ServerConfiguration(pollingThreads: 1), responder: deferredRouter(pending))
        try server.start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        for round in 1...3 {
            try connection.send("POST /later HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n")
            let reply = try #require(pending.next())
            // While the answer is pending, the one polling thread serves other connections.
            let other = try RawConnection(port: server.port, timeoutSeconds: 5)
            try other.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try other.readResponse().status == 200)
            Thread.detachNewThread { reply { .success(.text("answer \(round)")) } }
            let answer = try connection.readResponse()
            #expect(answer.status == 200)
            #expect(answer.text == "answer \(round)")
            #expect(answer.headers["x-request-id"] != nil)
        }
        // An error given later is its envelope; one thrown before the work started, or an answer
        // given at once, is sent without suspending.
        try connection.send("POST /later HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n")
        let refusal = try #require(pending.next())
        refusal { .failure(HTTPError(status: 409, code: .unrecognized("busy"), message: "Busy.")) }
        let busy = try connection.readResponse()
        #expect(busy.status == 409)
        #expect(busy.text.contains("\"busy\""))
        try connection.send("POST /later?refuse=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n")
        let refused = try connection.readResponse()
        #expect(refused.status == 400)
        #expect(refused.text.contains("Refused before the work started."))
        try connection.send("POST /later?now=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n")
        #expect(try connection.readResponse().text == "at once")
    }

    @Test("stop closes a connection whose answer never comes, and an answer given after that is dropped")
    func stopGivesUpOnAnAnswerThatNeverComes() throws {
        let pending = Pending()
        let server = Server(
            name: "test", configuration: ServerConfiguration(drainSeconds: 0.2), responder: deferredRouter(pending))
        try server.start()
        let connection = try RawConnection(port: server.port)
        try connection.send("POST /later HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n")
        let reply = try #require(pending.next())
        server.stop()  // libmicrohttpd aborts the process when stopped with a suspended connection
        #expect(throws: RawConnection.Closed.self) { _ = try connection.readResponse() }
        reply { .success(.text("too late")) }
    }

    @Test func answersOnTheChosenPort() throws {
        let server = try start()
        defer { server.stop() }
        #expect(server.port != 0)
        let connection = try RawConnection(port: server.port)
        try connection.send("GET /query?page=2&status=CLEARED HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == #"{"page":"2","status":"CLEARED"}"#)
    }

    @Test func bodyWithinTheLimitRoundTrips() throws {
        let server = try start()
        defer { server.stop() }
        let body = [UInt8]((0..<1024).map { UInt8($0 % 251) })
        let connection = try RawConnection(port: server.port)
        try connection.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n")
        try connection.send(body)
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.body == body)
    }

    @Test func declaredBodyOverTheLimitIs413BeforeItIsSent() throws {
        let server = try start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        try connection.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.text.contains(#""code":"payload_too_large""#))
    }

    @Test(arguments: [
        "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}garbage-tls-hello\r\n\r\n",
        "GARBAGE\r\n\r\n",
        "GET /healthz HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nBad Header Without Colon\r\n\r\n",
    ])
    func malformedRequestsGet400AndTheServerLives(bytes: String) throws {
        let server = try start()
        defer { server.stop() }
        let bad = try RawConnection(port: server.port, timeoutSeconds: 5)
        try bad.send(bytes)
        // An error answer, or a close without one; never a connection left hanging.
        do {
            let response = try bad.readResponse()
            #expect((400...505).contains(response.status), "\(response.status)")
        } catch {
            #expect(bad.isClosedOrResetByPeer(), "no answer and no close within 5 s")
        }
        let good = try RawConnection(port: server.port)
        try good.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try good.readResponse().status == 200)
    }

    @Test func oversizedHeadersAreRefused() throws {
        let server = try start(ServerConfiguration(maxHeaderBytes: 8 * 1024))
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "b", count: 20_000))\r\n\r\n")
        let status = (try? connection.readResponse())?.status
        #expect(status == 431 || status == 400 || status == nil)
        #expect(status != 200)
    }

    @Test func twoHundredKeepAliveConnectionsAtOnce() throws {
        let server = try start(ServerConfiguration())
        defer { server.stop() }
        let connections = try (0..<200).map { _ in try RawConnection(port: server.port) }
        // Every connection is open before any is answered, then each serves three requests in turn.
        for round in 0..<3 {
            for connection in connections {
                try connection.send("GET /query?round=\(round) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            }
            for connection in connections {
                let response = try connection.readResponse()
                #expect(response.status == 200)
                #expect(response.text == #"{"round":"\#(round)"}"#)
            }
        }
    }

    @Test func requestIdIsGeneratedOrEchoed() throws {
        let server = try start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let first = try #require(try connection.readResponse().headers["x-request-id"])
        try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let second = try #require(try connection.readResponse().headers["x-request-id"])
        #expect(first != second)
        try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: client-abc.1\r\n\r\n")
        #expect(try connection.readResponse().headers["x-request-id"] == "client-abc.1")
        // An id that would break the log is replaced.
        try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: a\"b{}\r\n\r\n")
        #expect(try connection.readResponse().headers["x-request-id"] != "a\"b{}")
    }

    @Test func accessLogWritesOneJSONLinePerRequest() throws {
        let folder = TemporaryDirectory()
        let log = try AccessLog(path: folder.file("logs/access.log").path, clock: ManualClock(Date(timeIntervalSince1970: 1_790_000_000)))
        let server = try start(log: log)
        let connection = try RawConnection(port: server.port)
        try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: r1\r\n\r\n")
        _ = try connection.readResponse()
        try connection.send("GET /nope\"quoted HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: r2\r\n\r\n")
        _ = try connection.readResponse()
        server.stop()
        let lines = try String(contentsOf: folder.file("logs/access.log"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let entries = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(entries[0]["id"] as? String == "r1")
        #expect(entries[0]["method"] as? String == "GET")
        #expect(entries[0]["path"] as? String == "/healthz")
        #expect(entries[0]["status"] as? Int == 200)
        #expect(entries[0]["service"] as? String == "test")
        #expect(entries[0]["ts"] as? Double == 1_790_000_000)
        #expect(entries[1]["path"] as? String == "/nope\"quoted")
        #expect(entries[1]["status"] as? Int == 404)
    }

    @Test func stopFinishesRequestsInFlight() throws {
        let server = try start()
        let connection = try RawConnection(port: server.port)
        try connection.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        usleep(50_000)
        let stopped = Atomic<Bool>(false)
        let stopper = Thread {
            server.stop()
            stopped.store(true, ordering: .sequentiallyConsistent)
        }
        stopper.start()
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "done")
        while !stopped.load(ordering: .sequentiallyConsistent) { usleep(10_000) }
        #expect(throws: RawConnection.Closed.self) { _ = try RawConnection(port: server.port) }
    }

    @Test func portInUseIsAClearError() throws {
        let first = try start()
        defer { first.stop() }
        let second = Server(name: "second", configuration: ServerConfiguration(port: first.port), responder: Self.router())
        #expect(throws: ServerError.cannotListen("127.0.0.1", first.port)) { try second.start() }
        let invalid = Server(name: "bad", configuration: ServerConfiguration(host: "localhost"), responder: Self.router())
        #expect(throws: ServerError.invalidAddress("localhost")) { try invalid.start() }
    }
}

@Suite(.blocksThreads) struct AccessLogFormatTests {
    @Test func linesAreValidJSONWhateverThePath() throws {
        let folder = TemporaryDirectory()
        let log = try AccessLog(path: folder.file("a.log").path, clock: ManualClock(Date(timeIntervalSince1970: 1_790_000_000.0456)))
        log.record(service: "EU", request: "r", method: "GET", path: "/a\"b\\c\u{01}\tü", status: 200, bytes: 7, milliseconds: 0.056)
        let text = try String(contentsOf: folder.file("a.log"), encoding: .utf8)
        #expect(text == #"{"ts":1790000000.046,"service":"EU","id":"r","method":"GET","path":"/a\"b\\c\u0001\u0009ü","status":200,"bytes":7,"ms":0.06}"# + "\n")
        let entry = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(entry["path"] as? String == "/a\"b\\c\u{01}\tü")
    }
}
