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
}
