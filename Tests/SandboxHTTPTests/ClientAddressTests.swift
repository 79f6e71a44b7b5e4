import Foundation
import SandboxHTTP
import Testing
import SandboxTestSupport

/// The peer address the server hands each request: what a rule that counts one client's failures keys on.
@Suite struct ClientAddressTests {
    @Test("a request carries its connection's peer address: 127.0.0.1 and 127.0.0.2 are two clients")
    func requestCarriesPeerAddress() throws {
        var router = Router()
        router.get("/whoami") { request in .text(request.clientAddress ?? "(none)") }
        let server = Server(name: "test", configuration: ServerConfiguration(pollingThreads: 1), responder: router)
        try server.start()
        defer { server.stop() }
        for source in ["127.0.0.1", "127.0.0.2"] {
            let connection = try RawConnection(port: server.port, source: source)
            try connection.send("GET /whoami HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try connection.readResponse().text == source)
        }
        // A request that came through no socket has no address.
        #expect(String(decoding: router.respond(to: Request(method: "GET", path: "/whoami")).body, as: UTF8.self) == "(none)")
    }

    @Test("X-Forwarded-For names the client only through a trusted proxy: the right-most untrusted address, never a forged one")
    func forwardedForThroughTrustedProxies() throws {
        var router = Router()
        router.get("/whoami") { request in .text(request.clientAddress ?? "(none)") }
        var configuration = ServerConfiguration(pollingThreads: 1)
        configuration.trustedProxies = ["127.0.0.2", "10.0.0.9"]
        let server = Server(name: "test", configuration: configuration, responder: router)
        try server.start()
        defer { server.stop() }
        func whoami(from source: String, forwardedFor: String?) throws -> String {
            let connection = try RawConnection(port: server.port, source: source)
            let header = forwardedFor.map { "X-Forwarded-For: \($0)\r\n" } ?? ""
            try connection.send("GET /whoami HTTP/1.1\r\nHost: 127.0.0.1\r\n\(header)\r\n")
            return try connection.readResponse().text
        }
        // Through the proxy (127.0.0.2): the client it names, past a second trusted hop, before a forged entry.
        #expect(try whoami(from: "127.0.0.2", forwardedFor: "203.0.113.7") == "203.0.113.7")
        #expect(try whoami(from: "127.0.0.2", forwardedFor: "198.51.100.1, 203.0.113.7, 10.0.0.9") == "203.0.113.7")
        #expect(try whoami(from: "127.0.0.2", forwardedFor: "2001:db8::1") == "2001:db8::1")
        // Garbage in the header: the last hop the proxies vouch for.
        #expect(try whoami(from: "127.0.0.2", forwardedFor: "not-an-address") == "127.0.0.2")
        #expect(try whoami(from: "127.0.0.2", forwardedFor: nil) == "127.0.0.2")
        // A client that is not a trusted proxy cannot name someone else.
        #expect(try whoami(from: "127.0.0.1", forwardedFor: "203.0.113.7") == "127.0.0.1")
    }
}
