import Foundation
import SandboxCore
@testable import SandboxHTTP
import Testing
import SandboxTestSupport

/// What a hostile or broken client can do to the server on a real socket (issue #17, "Connections
/// and bodies"): hold connections, stream bodies without end, smuggle a request, hide bytes behind NUL.
@Suite(.blocksThreads) struct ServerHardeningTests {
    static func router() -> Router {
        var router = ServerTests.router()
        // The value a handler sees for a header, so a test can tell what got past the server.
        router.get("/header") { request in .text(request.header(request.query["name"] ?? "") ?? "(none)") }
        return router
    }

    func start(_ configuration: ServerConfiguration = ServerConfiguration(maxBodyBytes: 1024), clock: ManualClock = ManualClock()) throws -> Server {
        let server = Server(name: "test", configuration: configuration, responder: Self.router(), clock: clock)
        try server.start()
        return server
    }

    /// Sends `request` on a fresh connection and reads the answer.
    func answer(_ server: Server, _ request: String) throws -> RawConnection.Response {
        try exchange(server, request).response
    }

    /// The answer, and whether the server then closed the connection (which waits up to the
    /// connection's 5 s read timeout when it stays open: only for the tests that ask).
    func answerAndClosed(_ server: Server, _ request: String) throws -> (RawConnection.Response, closed: Bool) {
        let (response, connection) = try exchange(server, request)
        return (response, connection.isClosedOrResetByPeer())
    }

    private func exchange(_ server: Server, _ request: String) throws -> (response: RawConnection.Response, connection: RawConnection) {
        let connection = try RawConnection(port: server.port, timeoutSeconds: 5)
        try connection.send(request)
        return (try connection.readResponse(), connection)
    }

    /// Waits (boundedly) until the server has read as far as a test needs: the deadlines count from
    /// what the server saw, so the clock must not move before it saw it.
    func waitUntil(_ server: Server, _ condition: ([(ConnectionWatch.Phase, received: Int)]) -> Bool) throws {
        try #require(eventuallyBlocking(5) { condition(server.deadlines.phases) })
    }

    // MARK: - Slowloris

    @Test("1,000 connections from 127.0.0.2 that trickle a head: /healthz still answers 127.0.0.1, and one address holds only its limit")
    func oneAddressCannotTakeEveryConnection() throws {
        let server = try start(ServerConfiguration())
        defer { server.stop() }
        var attackers: [RawConnection] = []
        for index in 0..<1000 {
            guard let connection = try? RawConnection(port: server.port, timeoutSeconds: 1, source: "127.0.0.2") else { continue }
            // Half send the start of a head, half nothing at all.
            if index % 2 == 0 { try? connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: ") }
            attackers.append(connection)
        }
        let client = try RawConnection(port: server.port, timeoutSeconds: 5)
        try client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        // Every connection the server holds beyond the client's is one of the attacker's.
        let held = server.deadlines.count - 1
        #expect(held <= ServerConfiguration().perAddressConnectionLimit)
        #expect(held < ServerConfiguration().connectionLimit)
    }

    @Test("four addresses holding their whole share fill no service: a fifth address is still answered, and hoarders take turns")
    func hoardersFromSeveralAddressesLeaveRoom() throws {
        // 40 slots, 10 per address: four addresses could take them all.
        let configuration = ServerConfiguration(connectionLimit: 40, perAddressConnectionLimit: 10)
        let server = try start(configuration)
        defer { server.stop() }
        var hoarded: [RawConnection] = []
        for address in ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"] {
            for _ in 0..<10 {
                if let connection = try? RawConnection(port: server.port, timeoutSeconds: 1, source: address) { hoarded.append(connection) }
            }
        }
        try #require(hoarded.count == 40, "the hoarders connected \(hoarded.count) times")
        let client = try RawConnection(port: server.port, timeoutSeconds: 5, source: "127.0.0.6")
        try client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try client.readResponse().status == 200, "a fifth address was not served beside four hoarding ones")
        // The last tenth of the slots stays free: what the hoarders hold is below it.
        #expect(eventuallyBlocking(5) { server.deadlines.count <= 36 + 1 }, "\(server.deadlines.count) connections held")
    }

    @Test("a head trickled a byte at a time is cut when its total deadline passes, not kept alive by each byte")
    func trickledHeadIsCutAtItsDeadline() throws {
        let clock = ManualClock()
        let server = try start(ServerConfiguration(requestHeadSeconds: 10), clock: clock)
        defer { server.stop() }
        let slow = try RawConnection(port: server.port, timeoutSeconds: 5)
        try waitUntil(server) { $0.count == 1 }
        for line in ["GET /healthz HTTP/1.1\r\n", "Host: 127.0.0.1\r\n", "X-A: 1\r\n", "X-B: 2\r\n"] {
            try slow.send(line)
            clock.advance(by: 3)  // 12 s in all, a byte well within any idle timeout each time
            usleep(20_000)  // lets the server read the line; the deadline does not depend on it
        }
        server.deadlines.enforce()  // or the sweeper, reading the same clock, got there first
        #expect(slow.isClosedOrResetByPeer())
        // A client that sends its head in time is served.
        let response = try answer(server, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(response.status == 200)
    }

    @Test("the sweeper that slept while no connection was open cuts the first one that overstays, by itself")
    func sweeperWakesForTheFirstConnection() throws {
        let clock = ManualClock()
        let server = try start(ServerConfiguration(requestHeadSeconds: 10), clock: clock)
        defer { server.stop() }
        #expect(server.deadlines.count == 0)
        let silent = try RawConnection(port: server.port, timeoutSeconds: 5)
        try waitUntil(server) { $0.count == 1 }
        clock.advance(by: 11)
        // No `enforce()` here: the sweeper, woken by the connection, checks within its second.
        #expect(silent.isClosedOrResetByPeer(), "the sweeper did not cut a head that passed its deadline")
    }

    @Test("a connection within its head deadline is left alone; a kept-alive one waits as long as the idle timeout")
    func deadlinesSpareConnectionsInTime() throws {
        let clock = ManualClock()
        let server = try start(ServerConfiguration(connectionTimeoutSeconds: 30, requestHeadSeconds: 10), clock: clock)
        defer { server.stop() }
        let connection = try RawConnection(port: server.port, timeoutSeconds: 5)
        try connection.send("GET /healthz HTTP/1.1\r\n")
        clock.advance(by: 9)
        #expect(server.deadlines.enforce() == 0)
        try connection.send("Host: 127.0.0.1\r\n\r\n")
        #expect(try connection.readResponse().status == 200)
        try waitUntil(server) { $0.first?.0 == .head }  // the answer is out: the idle allowance starts
        clock.advance(by: 25)  // idle between requests, within the 30 s idle allowance
        #expect(server.deadlines.enforce() == 0)
        try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try connection.readResponse().status == 200)
        try waitUntil(server) { $0.first?.0 == .head }
        clock.advance(by: 31)
        server.deadlines.enforce()  // or the sweeper, reading the same clock, got there first
        #expect(connection.isClosedOrResetByPeer())
    }

    @Test("a body that crawls below the minimum rate is cut; one that keeps the rate is not")
    func crawlingBodyIsCut() throws {
        let clock = ManualClock()
        let configuration = ServerConfiguration(maxBodyBytes: 1 << 20, requestHeadSeconds: 10, minimumBodyBytesPerSecond: 1000)
        let server = try start(configuration, clock: clock)
        defer { server.stop() }
        let crawler = try RawConnection(port: server.port, timeoutSeconds: 5)
        try crawler.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
        try crawler.send([UInt8](repeating: 0x61, count: 5000))  // earns 5 s beyond the 10 s of grace
        try waitUntil(server) { $0.contains { $0.0 == .body && $0.received == 5000 } }
        clock.advance(by: 14)
        #expect(server.deadlines.enforce() == 0)
        clock.advance(by: 2)
        server.deadlines.enforce()  // or the sweeper, reading the same clock, got there first
        #expect(crawler.isClosedOrResetByPeer())
    }

    // MARK: - Bodies

    @Test(
        "a chunked body is refused with 411 at its head and the connection closed, a chunk-size line of 40 KB too",
        arguments: [
            // The body never ends: the answer comes from the head alone.
            "258\r\n" + String(repeating: "a", count: 600) + "\r\n258\r\n",
            // A chunk-size line longer than libmicrohttpd's buffer (its own 500 page before).
            "5;" + String(repeating: "x", count: 40_000) + "\r\nhello\r\n0\r\n\r\n",
        ])
    func chunkedBodyIsRefusedAtItsHead(body: String) throws {
        let server = try start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port, timeoutSeconds: 5)
        try? connection.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + body)
        let response = try connection.readResponse()
        #expect(response.status == 411)
        #expect(response.text.contains(#""code":"invalid_request""#))
        #expect(response.text.contains(#""field":"header.Transfer-Encoding""#))
        #expect(connection.isClosedOrResetByPeer())
    }

    // MARK: - Smuggling (RFC 9112 §6.1)

    @Test("two Content-Length headers with different values are refused with 400 and the connection closed")
    func conflictingLengthsAreRefused() throws {
        let server = try start()
        defer { server.stop() }
        let (response, closed) = try answerAndClosed(
            server, "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!")
        #expect(response.status == 400)
        #expect(response.text.contains(#""code":"invalid_request""#))
        #expect(response.text.contains(#""field":"header.Content-Length""#))
        #expect(closed)
        // The same length twice is one length.
        let same = try answer(server, "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello")
        #expect(same.status == 200)
        #expect(same.text == "hello")
    }

    @Test("Content-Length with Transfer-Encoding is refused and closed: the request hidden in the body is never served")
    func lengthAndChunkedAreRefused() throws {
        let server = try start()
        defer { server.stop() }
        let hidden = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let connection = try RawConnection(port: server.port, timeoutSeconds: 5)
        try connection.send(
            "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(5 + hidden.utf8.count)\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + hidden)
        let response = try connection.readResponse()
        #expect(response.status == 400)
        #expect(response.text.contains(#""field":"header.Transfer-Encoding""#))
        #expect(connection.isClosedOrResetByPeer())
        // A coding other than chunked is refused too (the server would read such a body to the end of the stream).
        let (gzip, closed) = try answerAndClosed(server, "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n")
        #expect(gzip.status == 400)
        #expect(closed)
    }

    // MARK: - Control bytes

    @Test(
        "a control byte in the path, the query or a header value is a 400 in the envelope",
        arguments: [
            ("GET /healthz%00junk HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "path"),
            ("GET /healthz%0d%0aX:%20y HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "path"),
            ("GET /query?page=2%00junk HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "query"),
            ("GET /query?page=%7f HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "query"),
            ("GET /header?name=authorization HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok\0junk\r\n\r\n", "header.Authorization"),
            ("GET /header?name=idempotency-key HTTP/1.1\r\nHost: 127.0.0.1\r\nIdempotency-Key: K\0a\r\nX-After: 1\r\n\r\n", "header.Idempotency-Key"),
            ("GET /header?name=x-a HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: one\u{01}two\r\n\r\n", "header.X-A"),
            ("GET /header?name=x-a HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: K\0\0b\r\n\r\n", "header.X-A"),
        ])
    func controlBytesAreRefused(request: String, field: String) throws {
        let server = try start()
        defer { server.stop() }
        let response = try answer(server, request)
        #expect(response.status == 400)
        #expect(response.text.contains(#""code":"invalid_request""#))
        #expect(response.text.contains(#""field":"\#(field)""#))
    }

    @Test("a header folded over lines (obs-fold, which libmicrohttpd joins into the name) is refused in the envelope")
    func foldedHeaderIsRefused() throws {
        let server = try start()
        defer { server.stop() }
        let response = try answer(server, "GET /header?name=x-a HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\r\n folded\r\nX-B: 1\r\n\r\n")
        #expect(response.status == 400)
        #expect(response.text.contains(#""code":"invalid_request""#))
    }

    @Test("a raw NUL byte in the request line never reaches a route")
    func rawNulInThePathIsRefused() throws {
        let server = try start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port, timeoutSeconds: 5)
        try connection.send("GET /healthz\0junk HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let status = (try? connection.readResponse())?.status
        #expect(status == 400)
    }

    @Test("plain requests still pass: tabs, empty values, many headers, percent-encoded text, bare LF line ends")
    func plainRequestsPass() throws {
        let server = try start()
        defer { server.stop() }
        let many = (0..<40).map { "X-H\($0): value \($0)\r\n" }.joined()
        for request in [
            "GET /header?name=x-a HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Empty:\r\n\(many)X-A: a\tb\r\n\r\n",
            "GET /header?name=x-a HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A:   a\tb\r\nX-Last: \r\n\r\n",
            "GET /header?name=x-a HTTP/1.1\nHost: 127.0.0.1\nX-A: a\tb\n\n",
        ] {
            let response = try answer(server, request)
            #expect(response.status == 200)
            #expect(response.text == "a\tb")
        }
        let query = try answer(server, "GET /query?page=%C3%BC%20x+y HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(query.text == #"{"page":"ü x y"}"#)
    }
}
