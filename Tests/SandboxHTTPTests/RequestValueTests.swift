import Testing
import SandboxHTTP

/// A request is a value: its fields are shared between copies until one of them is changed.
@Suite struct RequestValueTests {
    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        let original = Request(
            method: "POST", path: "/v1/terminals/T1/transactions/sale", query: ["dryRun": "true"],
            headers: ["content-type": "application/json"], body: Array("{}".utf8), id: "req_1", clientAddress: "127.0.0.1")
        var copy = original
        copy.method = "GET"
        copy.path = "/v1/environment"
        copy.query["dryRun"] = nil
        copy.headers["x-extra"] = "1"
        copy.body.append(0x20)
        copy.parameters["terminalId"] = "T2"
        copy.id = "req_2"
        copy.clientAddress = nil
        #expect(original.method == "POST" && original.path == "/v1/terminals/T1/transactions/sale")
        #expect(original.query == ["dryRun": "true"] && original.headers == ["content-type": "application/json"])
        #expect(original.body == Array("{}".utf8) && original.parameters.isEmpty)
        #expect(original.id == "req_1" && original.clientAddress == "127.0.0.1")
        #expect(copy.method == "GET" && copy.path == "/v1/environment" && copy.query.isEmpty)
        #expect(copy.headers["x-extra"] == "1" && copy.body == Array("{} ".utf8) && copy.parameter("terminalId") == "T2")
        #expect(copy.id == "req_2" && copy.clientAddress == nil)
    }
}
