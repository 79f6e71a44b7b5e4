import Foundation
import SandboxHTTP
import SandboxTestSupport
import Testing

/// Sandbox control behind the key, in-process: what a server with a control key answers.
@Suite struct ControlGateTests {
    static func router() -> Router {
        var router = Router()
        router.get("/_sandbox/clock") { _ in .json(["now": "then"]) }
        router.post("/_sandbox/clock") { _ in .json(["moved": true]) }
        router.post("/_sandbox/reset") { _ in Response(status: 204) }
        router.post("/orders") { _ in .json(["made": true]) }
        return router
    }

    static func request(_ method: String, _ path: String, key: String? = nil) -> Request {
        Request(method: method, path: path, headers: key.map { ["x-sandbox-control-key": $0] } ?? [:])
    }

    @Test("with a key: control without it or with another is 401 control_key_required; with it, and every other route, pass")
    func controlNeedsTheKey() throws {
        let gate = ControlGate(key: "ctl_right_key_0123456789", inner: Self.router())
        for (method, path) in [("POST", "/_sandbox/clock"), ("POST", "/_sandbox/reset")] {
            let missing = gate.respond(to: Self.request(method, path))
            #expect(missing.status == 401 && String(decoding: missing.body, as: UTF8.self).contains(#""code":"control_key_required""#), "\(path): \(String(decoding: missing.body, as: UTF8.self))")
            #expect(String(decoding: missing.body, as: UTF8.self).contains(#""field":"header.X-Sandbox-Control-Key""#))
            let wrong = gate.respond(to: Self.request(method, path, key: "ctl_right_key_012345678"))
            #expect(wrong.status == 401 && String(decoding: wrong.body, as: UTF8.self).contains("wrong"), "\(String(decoding: wrong.body, as: UTF8.self))")
            #expect(gate.respond(to: Self.request(method, path, key: "ctl_right_key_0123456789")).status < 300)
        }
        #expect(gate.respond(to: Self.request("GET", "/_sandbox/clock")).status == 200, "reading the clock stays open")
        #expect(gate.respond(to: Self.request("POST", "/orders")).status == 200, "only control is gated")
    }

    @Test("a server with a control key gates its control; one without leaves it open")
    func theServerGates() throws {
        for key in ["ctl_server_key_0123456789", nil] {
            let server = Server(name: "gated", configuration: ServerConfiguration(controlKey: key), responder: Self.router())
            try server.start()
            defer { server.stop() }
            let connection = try RawConnection(port: server.port)
            try connection.send("POST /_sandbox/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n")
            #expect(try connection.readResponse().status == (key == nil ? 204 : 401))
        }
    }

    @Test("loopback is 127.0.0.0/8 only; a wildcard bind is advertised at an interface address, a given one as it is")
    func listenAddresses() {
        for loopback in ["127.0.0.1", "127.0.0.2", "127.255.0.9"] { #expect(ListenAddress.isLoopback(loopback), "\(loopback)") }
        for other in ["0.0.0.0", "10.0.0.1", "192.168.1.20", "128.0.0.1", "localhost", ""] {
            #expect(!ListenAddress.isLoopback(other), "\(other)")
        }
        #expect(ListenAddress.reachable("192.168.1.20") == "192.168.1.20")
        let advertised = ListenAddress.reachable("0.0.0.0")
        var address = in_addr()
        #expect(inet_pton(AF_INET, advertised, &address) == 1 && advertised != "0.0.0.0", "\(advertised)")
    }
}
