import Foundation
import SandboxHTTP
import SandboxTestSupport
import Testing

/// What a web page the developer visits can send, in-process against the gate every server puts in
/// front of its routes, and once over a real socket (the headers every answer carries).
@Suite struct SiteGateTests {
    static func gate(allowing names: [String] = []) -> SiteGate {
        var router = Router()
        router.get("/_sandbox/clock") { _ in .json(["now": "then"]) }
        router.post("/_sandbox/clock") { _ in .json(["moved": true]) }
        router.post("/_sandbox/reset") { _ in Response(status: 204) }
        router.delete("/api/rules") { _ in Response(status: 204) }
        return SiteGate(allowedHosts: names, inner: router)
    }

    static func request(_ method: String, _ path: String, _ headers: [String: String], body: String = "") -> Request {
        Request(method: method, path: path, headers: Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) }),
                body: Array(body.utf8))
    }

    static func code(_ response: Response) -> String {
        let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return ((object?["error"] as? [String: Any])?["code"] as? String) ?? "status \(response.status)"
    }

    /// Every request a page on another site can send without a preflight: a form, text/plain, a
    /// body with no type, no body at all; with the Origin and Sec-Fetch-Site Chromium gives them.
    static let crossSiteSendable: [(String, [String: String], String)] = [
        ("form", ["Content-Type": "application/x-www-form-urlencoded", "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"], "a=1"),
        ("text/plain", ["Content-Type": "text/plain;charset=UTF-8", "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"], #"{"advanceSeconds":86400}"#),
        ("no type", ["Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"], #"{"advanceSeconds":86400}"#),
        ("no body", ["Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"], ""),
        ("no-referrer page", ["Origin": "null", "Content-Type": "text/plain"], "{}"),
        ("a sibling port", ["Origin": "http://127.0.0.1:3000", "Sec-Fetch-Site": "same-site", "Content-Type": "text/plain"], "{}"),
        ("an old browser", ["Origin": "http://evil.example", "Content-Type": "multipart/form-data; boundary=x"], ""),
    ]

    @Test("what a page on another site can send without asking is refused on every write: 403 cross_site_request")
    func crossSiteWritesAreRefused() {
        let gate = Self.gate()
        for (name, headers, body) in Self.crossSiteSendable {
            for (method, path) in [("POST", "/_sandbox/clock"), ("POST", "/_sandbox/reset"), ("DELETE", "/api/rules")] {
                var headers = headers
                headers["Host"] = "127.0.0.1:8100"
                let answer = gate.respond(to: Self.request(method, path, headers, body: body))
                #expect(answer.status == 403 && Self.code(answer) == "cross_site_request", "\(name) \(method) \(path): \(Self.code(answer))")
            }
        }
        // Even a JSON type (sent only after a preflight no service grants) from another origin.
        let json = gate.respond(to: Self.request("POST", "/_sandbox/clock", [
            "Host": "127.0.0.1:8100", "Origin": "http://localhost:8109", "Content-Type": "application/json"]))
        #expect(json.status == 403, "\(Self.code(json))")
    }

    @Test("a client that is not a browser declares JSON on every write, body or not; without it 415 names the header")
    func writesDeclareJSON() {
        let gate = Self.gate()
        for (method, path, body) in [("POST", "/_sandbox/reset", ""), ("DELETE", "/api/rules", ""), ("POST", "/_sandbox/clock", "{}")] {
            let bare = gate.respond(to: Self.request(method, path, ["Host": "127.0.0.1:8100"], body: body))
            #expect(bare.status == 415 && Self.code(bare) == "unsupported_media_type", "\(method) \(path): \(Self.code(bare))")
            #expect(String(decoding: bare.body, as: UTF8.self).contains("curl --json"))
            for type in ["text/plain", "application/jsonp", "application/json-seq", "application/js", "application/x-json", "json"] {
                let other = gate.respond(to: Self.request(method, path, ["Host": "127.0.0.1:8100", "Content-Type": type], body: body))
                #expect(other.status == 415, "\(method) \(path) \(type)")
            }
            for type in ["application/json", "application/json; charset=utf-8", "Application/JSON", " application/json\t;charset=utf-8", "APPLICATION/JSON"] {
                let declared = gate.respond(to: Self.request(method, path, ["Host": "127.0.0.1:8100", "Content-Type": type], body: body))
                #expect(declared.status < 300, "\(method) \(path) \(type): \(Self.code(declared))")
            }
        }
        #expect(gate.respond(to: Self.request("GET", "/_sandbox/clock", ["Host": "127.0.0.1:8100"])).status == 200, "reads need nothing")
    }

    @Test("the service's own pages (same origin) write as before, with or without a JSON type")
    func ownPagesWrite() {
        let gate = Self.gate()
        for headers in [
            ["Origin": "http://127.0.0.1:8110", "Sec-Fetch-Site": "same-origin"],
            ["Origin": "http://127.0.0.1:8110"],
            ["Sec-Fetch-Site": "same-origin"],
            ["Origin": "http://127.0.0.1:8110", "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json"],
        ] {
            var headers = headers
            headers["Host"] = "127.0.0.1:8110"
            let answer = gate.respond(to: Self.request("POST", "/_sandbox/reset", headers))
            #expect(answer.status == 204, "\(headers): \(Self.code(answer))")
        }
    }

    @Test("Host must name loopback, an IP address or a name the service was given: a rebinding page's name gets 421")
    func hostIsChecked() {
        let gate = Self.gate(allowing: ["wallet", "MyMac.local."])
        for host in ["127.0.0.1", "127.0.0.1:8100", "localhost", "LOCALHOST:8100", "[::1]:8100", "[::1]", "192.168.1.20:8110",
                     "app.localhost:8100", "wallet:8110", "mymac.local", "mymac.local.:8100"] {
            let answer = gate.respond(to: Self.request("GET", "/_sandbox/clock", ["Host": host]))
            #expect(answer.status == 200, "\(host): \(Self.code(answer))")
        }
        for host in ["rebind.evil.example", "rebind.evil.example:8100", "127.0.0.1.evil.example", "localhost.evil.example",
                     "127.1", "[not-an-address]", "", "wallet.evil.example", "[::1"] {
            for method in ["GET", "POST"] {
                let answer = gate.respond(to: Self.request(method, "/_sandbox/clock", ["Host": host, "Content-Type": "application/json"]))
                #expect(answer.status == 421 && Self.code(answer) == "host_not_allowed", "\(method) \(host): \(Self.code(answer))")
            }
        }
        // The rebinding page is same-origin with itself: its Origin matches its Host, and still no.
        let rebound = gate.respond(to: Self.request("POST", "/_sandbox/clock", [
            "Host": "rebind.evil.example:8100", "Origin": "http://rebind.evil.example:8100", "Sec-Fetch-Site": "same-origin"]))
        #expect(rebound.status == 421)
    }

    @Test("a real server gates every route, and every answer says nosniff and refuses frames from other origins")
    func theServerGatesAndGuards() throws {
        var router = Router()
        router.post("/_sandbox/reset") { _ in Response(status: 204) }
        router.get("/page") { _ in .text("<p>hi</p>", contentType: "text/html; charset=utf-8") }
        let server = Server(name: "gated", configuration: ServerConfiguration(allowedHosts: ["sandbox-eu"]), responder: router)
        try server.start()
        defer { server.stop() }
        let exchanges: [(String, Int)] = [
            ("POST /_sandbox/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n", 415),
            ("POST /_sandbox/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n", 204),
            ("POST /_sandbox/reset HTTP/1.1\r\nHost: sandbox-eu:8100\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n", 204),
            ("GET /page HTTP/1.1\r\nHost: rebind.evil.example\r\n\r\n", 421),
            ("GET /page HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 200),
            ("GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 404),
        ]
        for (request, status) in exchanges {
            let connection = try RawConnection(port: server.port)
            try connection.send(request)
            let answer = try connection.readResponse()
            #expect(answer.status == status, "\(request.prefix(60)): \(answer.status)")
            #expect(answer.headers["x-content-type-options"] == "nosniff", "\(request.prefix(40))")
            #expect(answer.headers["x-frame-options"] == "SAMEORIGIN" && answer.headers["content-security-policy"] == "frame-ancestors 'self'")
        }
    }
}
