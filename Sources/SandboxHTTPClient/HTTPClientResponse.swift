/// What the server answered.
///
/// Any status is a response, `404` and `500` included: deciding what a status means is
/// the caller's business (a webhook sender records it and retries), not a transport error.
///
/// ```swift
/// let response = try client.send(request)
/// if (200..<300).contains(response.status) { markDelivered() }
/// ```
public struct HTTPClientResponse: Sendable, Equatable {
    /// The final status code. Redirects are not followed, so a `3xx` is returned as is.
    public var status: Int
    /// The response header fields of the final response, repeats kept in order.
    public var headers: HTTPClientHeaders
    /// The body bytes, at most ``HTTPClient/Configuration/maxResponseBodySize`` of them.
    public var body: [UInt8]
    /// Wall time from the start of the request to the last byte, as libcurl measured it.
    public var totalTime: Duration

    public init(status: Int, headers: HTTPClientHeaders = [:], body: [UInt8] = [], totalTime: Duration = .zero) {
        self.status = status
        self.headers = headers
        self.body = body
        self.totalTime = totalTime
    }

    /// The body decoded as UTF-8, invalid sequences replaced.
    public var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }
}
