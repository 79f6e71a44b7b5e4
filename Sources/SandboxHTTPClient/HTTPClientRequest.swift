/// One request for ``HTTPClient`` to send.
///
/// The body is sent as is, with a `Content-Length`. libcurl's defaults that would change
/// what a receiver sees are switched off: no `Expect: 100-continue`, and no
/// `application/x-www-form-urlencoded` content type unless you set one.
///
/// ```swift
/// let request = HTTPClientRequest(
///     method: .post,
///     url: "http://127.0.0.1:9000/webhooks",
///     headers: ["Content-Type": "application/json"],
///     body: Array(#"{"type":"payment.succeeded"}"#.utf8)
/// )
/// ```
public struct HTTPClientRequest: Sendable, Equatable {
    /// An HTTP method token.
    public struct Method: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public init(stringLiteral value: String) {
            self.rawValue = value
        }

        public var description: String { rawValue }

        public static let get: Method = "GET"
        public static let head: Method = "HEAD"
        public static let post: Method = "POST"
        public static let put: Method = "PUT"
        public static let patch: Method = "PATCH"
        public static let delete: Method = "DELETE"
        public static let options: Method = "OPTIONS"
    }

    /// The method; any token is allowed.
    public var method: Method
    /// An absolute `http` or `https` URL.
    public var url: String
    /// Header fields to send. A `User-Agent` here overrides the client's.
    public var headers: HTTPClientHeaders
    /// The body bytes; may be empty.
    public var body: [UInt8]
    /// A total timeout for this request alone, instead of the client's.
    public var timeout: Duration?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method; `GET` by default.
    ///   - url: An absolute `http` or `https` URL.
    ///   - headers: Header fields to send.
    ///   - body: The body bytes.
    ///   - timeout: A total timeout for this request, overriding ``HTTPClient/Configuration/totalTimeout``.
    public init(
        method: Method = .get,
        url: String,
        headers: HTTPClientHeaders = [:],
        body: [UInt8] = [],
        timeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}
