import SandboxHTTPClient
import Testing

struct HTTPClientErrorTests {
    @Test func errorsCompareByKindAndDescribeTheirKind() {
        #expect(HTTPClientError.timedOut == .timedOut)
        #expect(HTTPClientError.timedOut != .connectionFailed)
        #expect(HTTPClientError.responseTooLarge != .transport)
        #expect(HTTPClientError.tls.description == "HTTPClientError.tls")
        #expect(HTTPClientError.timedOut.curlCode == nil)
    }
}
