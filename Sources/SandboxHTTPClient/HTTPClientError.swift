/// The one error type ``HTTPClient`` throws.
///
/// Compare against the static cases; two errors are equal when their kinds match, so the
/// diagnostic fields never get in the way of a `catch` or a test. For wrapped libcurl
/// failures ``curlCode`` and ``message`` keep what curl said, for logs.
///
/// ```swift
/// do {
///     let response = try client.send(request)
/// } catch where error == .timedOut {
///     scheduleRetry()
/// }
/// ```
public struct HTTPClientError: Error, Equatable, Sendable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case invalidURL
        case unsupportedScheme
        case invalidRequest
        case hostNotFound
        case connectionFailed
        case timedOut
        case responseTooLarge
        case tls
        case cancelled
        case transport
        case forbiddenAddress
    }

    private let code: Code

    /// libcurl's raw `CURLcode`, when the error came from a transfer; `nil` otherwise.
    public let curlCode: Int?

    /// What went wrong, in words, for diagnostics. Not part of equality.
    public let message: String

    private init(_ code: Code, curlCode: Int? = nil, message: String = "") {
        self.code = code
        self.curlCode = curlCode
        self.message = message
    }

    /// The URL could not be parsed.
    public static let invalidURL = HTTPClientError(.invalidURL)
    /// The URL's scheme is not `http` or `https`.
    public static let unsupportedScheme = HTTPClientError(.unsupportedScheme)
    /// The request itself is malformed: a bad method token, or a header that would split the message.
    public static let invalidRequest = HTTPClientError(.invalidRequest)
    /// The host name did not resolve.
    public static let hostNotFound = HTTPClientError(.hostNotFound)
    /// No TCP connection could be made (refused, unreachable).
    public static let connectionFailed = HTTPClientError(.connectionFailed)
    /// The connect timeout or the total timeout ran out.
    public static let timedOut = HTTPClientError(.timedOut)
    /// The response body was larger than ``HTTPClient/Configuration/maxResponseBodySize``.
    public static let responseTooLarge = HTTPClientError(.responseTooLarge)
    /// The TLS handshake or certificate verification failed.
    public static let tls = HTTPClientError(.tls)
    /// The calling task was cancelled while the request ran.
    public static let cancelled = HTTPClientError(.cancelled)
    /// The URL's host is or resolves to an address the request's ``PublicAddress`` policy
    /// refuses; nothing was sent.
    public static let forbiddenAddress = HTTPClientError(.forbiddenAddress)
    /// Any other failure on the wire (connection reset, malformed reply, empty reply …).
    public static let transport = HTTPClientError(.transport)

    /// The same kind of error with diagnostics attached.
    func with(curlCode: Int? = nil, message: String) -> HTTPClientError {
        HTTPClientError(code, curlCode: curlCode ?? self.curlCode, message: message)
    }

    public static func == (lhs: HTTPClientError, rhs: HTTPClientError) -> Bool {
        lhs.code == rhs.code
    }

    public var description: String {
        var text = "HTTPClientError.\(code.rawValue)"
        if let curlCode { text += " (curl \(curlCode))" }
        if !message.isEmpty { text += ": \(message)" }
        return text
    }
}
