import Foundation
import SandboxHTTPClient
import Synchronization
import SandboxTestSupport
import Testing

/// What `/echo` saw.
private struct Echo: Decodable {
    let method: String
    let headers: [[String]]
    let body: String
    let body_length: Int
    let client_port: Int

    func header(_ name: String) -> [String] {
        headers.filter { $0[0].lowercased() == name.lowercased() }.map { $0[1] }
    }

    var bodyBytes: [UInt8] {
        Array(Data(base64Encoded: body) ?? Data())
    }
}

private func echo(of response: HTTPClientResponse) throws -> Echo {
    try JSONDecoder().decode(Echo.self, from: Data(response.body))
}

private func server() throws -> FixtureServer {
    try #require(FixtureServer.current)
}

/// A loopback port nothing listens on: taken from the system, then released.
private func closedLoopbackPort() throws -> Int {
    let port = Int(freePort())
    try #require(port != 0)
    return port
}

@Suite(.fixtureServer, .blocksThreads)
struct HTTPClientTests {
    @Test func postRoundTripsBinaryBodyAndHeaders() throws {
        let client = HTTPClient(configuration: .init(userAgent: "WebhookSender/7"))
        let body = (0..<2000).map { UInt8($0 % 256) }  // NUL and high bytes included
        let response = try client.send(HTTPClientRequest(
            method: .post,
            url: try server().url("/echo"),
            headers: ["Content-Type": "application/octet-stream", "Webhook-Id": "evt_123", "X-Empty": ""],
            body: body
        ))

        #expect(response.status == 200)
        #expect(response.headers.first(name: "content-type") == "application/json")
        let seen = try echo(of: response)
        #expect(seen.method == "POST")
        #expect(seen.bodyBytes == body)
        #expect(seen.header("Webhook-Id") == ["evt_123"])
        #expect(seen.header("X-Empty") == [""])
        #expect(seen.header("Content-Type") == ["application/octet-stream"])
        #expect(seen.header("Content-Length") == ["2000"])
        #expect(seen.header("User-Agent") == ["WebhookSender/7"])
    }

    @Test func largeBodiesAreSentWithoutExpectContinue() throws {
        let client = HTTPClient()
        // Above curl's threshold for adding Expect: 100-continue, which stalls receivers that ignore it.
        let body = [UInt8](repeating: 0x5A, count: 1_100_000)
        let response = try client.send(HTTPClientRequest(method: .post, url: try server().url("/echo?summary=1"), body: body))
        let seen = try echo(of: response)
        #expect(seen.body_length == body.count)
        #expect(seen.header("Expect").isEmpty)
    }

    @Test func postWithoutContentTypeGetsNoFormContentType() throws {
        let client = HTTPClient()
        let response = try client.send(HTTPClientRequest(method: .post, url: try server().url("/echo"), body: Array("a=b".utf8)))
        let seen = try echo(of: response)
        #expect(seen.header("Content-Type").isEmpty)
        #expect(seen.bodyBytes == Array("a=b".utf8))
    }

    @Test(arguments: [
        (HTTPClientRequest.Method.get, ""),
        (.delete, ""),
        (.put, "replacement"),
        (.patch, "change"),
        (.post, ""),
        ("REPORT", "custom"),
    ])
    func methodsAndBodiesArriveAsSent(method: HTTPClientRequest.Method, body: String) throws {
        let client = HTTPClient()
        let response = try client.send(HTTPClientRequest(method: method, url: try server().url("/echo"), body: Array(body.utf8)))
        let seen = try echo(of: response)
        #expect(seen.method == method.rawValue)
        #expect(seen.bodyBytes == Array(body.utf8))
    }

    @Test func headReturnsHeadersWithoutWaitingForABody() throws {
        let client = HTTPClient(configuration: .init(totalTimeout: .seconds(3)))
        let response = try client.send(HTTPClientRequest(method: .head, url: try server().url("/bytes?n=10")))
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.headers.first(name: "Content-Length") == "10")
    }

    @Test(arguments: [201, 400, 404, 409, 500, 503])
    func nonSuccessStatusesAreResponses(status: Int) throws {
        let client = HTTPClient()
        let response = try client.send(HTTPClientRequest(url: try server().url("/status/\(status)")))
        #expect(response.status == status)
        #expect(response.bodyText == "status \(status)")
    }

    @Test func redirectsAreReturnedNotFollowed() throws {
        let client = HTTPClient()
        let response = try client.send(HTTPClientRequest(url: try server().url("/redirect?to=/echo")))
        #expect(response.status == 302)
        #expect(response.headers.first(name: "location") == "/echo")
    }

    @Test func repeatedResponseHeadersAreKeptAndLookupIgnoresCase() throws {
        let client = HTTPClient()
        let response = try client.send(HTTPClientRequest(url: try server().url("/headers")))
        #expect(response.headers["x-multi"] == ["one", "two"])
        #expect(response.headers["X-MULTI"] == ["one", "two"])
        #expect(response.headers.first(name: "x-mixed-case") == "yes")
        #expect(response.bodyText == "ok")
    }

    @Test func onlyTheFinalResponsesHeadersAreKept() throws {
        let client = HTTPClient()
        let response = try client.send(HTTPClientRequest(url: try server().url("/early-hints")))
        #expect(response.status == 200)
        #expect(response.headers.first(name: "X-Final") == "yes")
        #expect(!response.headers.contains(name: "Link"))
        #expect(response.bodyText == "final")
    }

    @Test func totalTimeIsMeasured() throws {
        let client = HTTPClient()
        let response = try client.send(HTTPClientRequest(url: try server().url("/slow?seconds=0.2")))
        #expect(response.totalTime >= .milliseconds(200))
        #expect(response.totalTime < .seconds(60), "a total time in the wrong unit")
    }

    @Test func connectingToAClosedPortIsConnectionFailed() throws {
        let port = try closedLoopbackPort()
        let client = HTTPClient()
        let error = #expect(throws: HTTPClientError.connectionFailed) {
            try client.send(HTTPClientRequest(url: "http://127.0.0.1:\(port)/echo"))
        }
        #expect(error?.curlCode != nil)
        #expect(error?.message.isEmpty == false)
    }

    @Test func totalTimeoutAbortsASlowResponseQuickly() throws {
        let client = HTTPClient(configuration: .init(totalTimeout: .milliseconds(300)))
        // The server answers after 5 s: without the timeout this would succeed.
        let url = try server().url("/slow?seconds=5")
        #expect(throws: HTTPClientError.timedOut) { try client.send(HTTPClientRequest(url: url)) }
    }

    @Test func requestTimeoutOverridesTheClients() throws {
        let client = HTTPClient(configuration: .init(totalTimeout: .seconds(30)))
        // The server answers after 5 s, well within the client's 30 s: only the request's own 300 ms times out.
        let url = try server().url("/slow?seconds=5")
        #expect(throws: HTTPClientError.timedOut) {
            try client.send(HTTPClientRequest(url: url, timeout: .milliseconds(300)))
        }
    }

    @Test(arguments: [false, true])
    func bodyOverTheCapIsResponseTooLarge(chunked: Bool) throws {
        let client = HTTPClient(configuration: .init(maxResponseBodySize: 1000))
        let chunkedQuery = chunked ? "&chunked=1" : ""
        #expect(throws: HTTPClientError.responseTooLarge) {
            try client.send(HTTPClientRequest(url: try server().url("/bytes?n=5000\(chunkedQuery)")))
        }
        // The aborted transfer leaves its pooled handle usable for the next request.
        let next = try client.send(HTTPClientRequest(url: try server().url("/bytes?n=10\(chunkedQuery)")))
        #expect(next.body == (0..<10).map { UInt8($0) })
    }

    @Test(arguments: [false, true])
    func bodyExactlyAtTheCapIsAccepted(chunked: Bool) throws {
        let client = HTTPClient(configuration: .init(maxResponseBodySize: 3000))
        let response = try client.send(HTTPClientRequest(url: try server().url("/bytes?n=3000\(chunked ? "&chunked=1" : "")")))
        #expect(response.body == (0..<3000).map { UInt8($0 % 251) })
    }

    @Test func sequentialRequestsReuseTheConnection() throws {
        let client = HTTPClient()
        let url = try server().url("/echo")
        let first = try echo(of: client.send(HTTPClientRequest(url: url)))
        let second = try echo(of: client.send(HTTPClientRequest(method: .post, url: url, body: [1, 2, 3])))
        #expect(first.client_port == second.client_port)
        // A different client has its own handles, hence its own connection.
        let other = try echo(of: HTTPClient().send(HTTPClientRequest(url: url)))
        #expect(other.client_port != first.client_port)
    }

    @Test func twentyConcurrentRequestsFromThreadsAllSucceed() throws {
        let client = HTTPClient()
        let url = try server().url("/echo")
        let results = Mutex<[Int: Result<[UInt8], HTTPClientError>]>([:])
        let group = DispatchGroup()
        for index in 0..<20 {
            group.enter()
            let thread = Thread {
                let body = Array("request \(index)".utf8)
                let result = Result { () throws(HTTPClientError) in
                    try client.send(HTTPClientRequest(method: .post, url: url, body: body)).body
                }
                results.withLock { $0[index] = result }
                group.leave()
            }
            thread.start()
        }
        #expect(group.wait(timeout: .now() + 20) == .success)

        let collected = results.withLock { $0 }
        #expect(collected.count == 20)
        for (index, result) in collected {
            let body = try result.get()
            let seen = try JSONDecoder().decode(Echo.self, from: Data(body))
            // Each thread gets its own answer: no handle served two transfers at once.
            #expect(seen.bodyBytes == Array("request \(index)".utf8))
        }
    }

    @Test func asyncRequestsRunInParallelOffTheCooperativePool() async throws {
        let client = HTTPClient()
        // Each request is answered only once all 20 wait at the server together (504 after 20 s
        // otherwise): one after another, or a few at a time on the cooperative pool, never gets there.
        let url = try server().url("/gather?n=20&name=\(UUID().uuidString)")
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask { try await client.send(HTTPClientRequest(url: url)).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 20), "not all 20 requests were in flight at once")
    }

    @Test func cancellingTheTaskAbortsTheRequest() async throws {
        let client = HTTPClient(configuration: .init(totalTimeout: .seconds(30)))
        // The server answers after 10 s: without cancellation the request would succeed.
        let url = try server().url("/slow?seconds=10")
        let task = Task { () async throws(HTTPClientError) -> HTTPClientResponse in
            try await client.send(HTTPClientRequest(url: url))
        }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let result = await task.result
        #expect(throws: HTTPClientError.cancelled) { try result.get() }
    }

    @Test(arguments: [
        ("not a url", HTTPClientError.invalidURL),
        ("", .invalidURL),
        ("http://", .invalidURL),
        ("http://127.0.0.1:99999/", .invalidURL),
        ("ftp://127.0.0.1/file.txt", .unsupportedScheme),
        ("file:///etc/passwd", .unsupportedScheme),
        ("gopher://127.0.0.1/", .unsupportedScheme),
    ])
    func invalidURLsAreRejected(url: String, expected: HTTPClientError) throws {
        let client = HTTPClient()
        #expect(throws: expected) { try client.send(HTTPClientRequest(url: url)) }
    }

    @Test(arguments: [
        HTTPClientRequest(url: "http://127.0.0.1:1/", headers: ["X-Evil": "a\r\nX-Injected: 1"]),
        HTTPClientRequest(url: "http://127.0.0.1:1/", headers: ["Bad Name": "x"]),
        HTTPClientRequest(method: "GE T", url: "http://127.0.0.1:1/"),
        HTTPClientRequest(method: .head, url: "http://127.0.0.1:1/", body: [1]),
    ])
    func malformedRequestsAreRejectedBeforeSending(request: HTTPClientRequest) throws {
        let client = HTTPClient()
        #expect(throws: HTTPClientError.invalidRequest) { try client.send(request) }
    }
}
