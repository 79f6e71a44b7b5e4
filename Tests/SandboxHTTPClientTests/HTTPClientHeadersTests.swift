import SandboxHTTPClient
import Testing

struct HTTPClientHeadersTests {
    @Test func lookupIgnoresCaseAndKeepsOrder() {
        var headers: HTTPClientHeaders = ["Set-Cookie": "a=1"]
        headers.add(name: "set-cookie", value: "b=2")
        headers.add(name: "Content-Type", value: "text/plain")
        #expect(headers["SET-COOKIE"] == ["a=1", "b=2"])
        #expect(headers.first(name: "content-type") == "text/plain")
        #expect(headers["missing"].isEmpty)
        #expect(headers.count == 3)
    }

    @Test func replaceOrAddLeavesOneField() {
        var headers: HTTPClientHeaders = ["Accept": "a", "accept": "b", "Other": "c"]
        headers.replaceOrAdd(name: "ACCEPT", value: "z")
        #expect(headers["accept"] == ["z"])
        #expect(headers.map(\.name) == ["Other", "ACCEPT"])
    }

    @Test func namesDifferingOnlyBeyondASCIICaseDoNotMatch() {
        let headers: HTTPClientHeaders = ["X-Á": "1"]
        #expect(headers["x-á"].isEmpty)
        #expect(headers["X-Á"] == ["1"])
        #expect(!headers.contains(name: "X-A"))
    }
}
