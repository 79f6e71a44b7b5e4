import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP calls of the device libraries (TapOnMobile, MONEI, PagBank, Geopagos): one request out,
/// its status and body back, or why there is no answer, in the terms an SDK decides on (was the
/// request possibly received?).
///
/// On Apple platforms it goes over URLSession. On Linux it goes over libcurl (`SandboxHTTPClient`)
/// by default: FoundationNetworking's URLSession is slow to notice a server that closes the
/// connection without answering (the "outcome unknown" fault), where libcurl reports it at once.
/// Both engines give the same outcome for the same fault, and both end a call whose task is
/// cancelled at once.
///
/// ```swift
/// let transport = DeviceTransport(timeout: 15, userAgent: "MoneiTapToPay")
/// switch await transport.send("POST", url, headers: ["Authorization": "Bearer \(token)"], body: json) {
/// case .answer(let status, let body): …
/// case .failed(let failure) where failure.kind == .unreachable: …   // nothing was sent
/// case .failed: …                                                   // it may have been received
/// }
/// ```
public struct DeviceTransport: Sendable {
    /// Why a request has no answer.
    public struct Failure: Error, Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// No connection was made, or the calling task was cancelled before it was: the request
            /// was not sent.
            case unreachable
            /// Sent, and no answer came in time.
            case timeout
            /// Sent (or being sent), and the connection broke, or the calling task was cancelled,
            /// before the answer was whole.
            case connectionLost
            /// Something came back that is not an HTTP answer.
            case invalidResponse
        }

        public let kind: Kind
        /// What happened, in words for a log line or an error message.
        public let message: String
    }

    /// What came back.
    public enum Outcome: Sendable {
        case answer(status: Int, body: Data)
        case failed(Failure)
    }

    /// The HTTP library a transport goes over.
    package enum Engine: Sendable, CaseIterable {
        /// URLSession: Foundation's own on Apple platforms, FoundationNetworking's on Linux.
        case urlSession
        #if os(Linux)
        /// libcurl, through `SandboxHTTPClient`.
        case curl
        #endif

        /// libcurl on Linux, URLSession elsewhere.
        package static var platform: Engine {
            #if os(Linux)
            .curl
            #else
            .urlSession
            #endif
        }
    }

    private let engine: any Sending

    /// A transport over the platform's engine.
    ///
    /// - Parameters:
    ///   - timeout: Seconds a whole request may take (connecting: at most 5 of them).
    ///   - userAgent: Sent as `User-Agent`.
    public init(timeout: TimeInterval, userAgent: String) {
        self.init(timeout: timeout, userAgent: userAgent, engine: .platform)
    }

    /// A transport over `engine`: tests run the same calls over both engines on Linux.
    package init(timeout: TimeInterval, userAgent: String, engine: Engine) {
        switch engine {
        case .urlSession: self.engine = URLSessionEngine(timeout: timeout, userAgent: userAgent)
        #if os(Linux)
        case .curl: self.engine = CurlEngine(timeout: timeout, userAgent: userAgent)
        #endif
        }
    }

    /// Sends one request; `Accept: application/json` goes with every one, and
    /// `Content-Type: application/json` with every one but a `GET` or `HEAD` that names no other
    /// type, body or not: the sandbox refuses a write that does not declare JSON, as that is what a
    /// web page on another site could send it.
    ///
    /// A call whose task is cancelled ends at once: `unreachable` when it was cancelled before it
    /// started, `connectionLost` when the request may have gone out.
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, `PUT`, `DELETE`.
    ///   - url: The whole URL.
    ///   - headers: Further headers (`Authorization`, `Content-Type`, `Idempotency-Key`).
    ///   - body: The body, if any.
    /// - Returns: The status and body, or why there is none.
    public func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) async -> Outcome {
        guard !Task.isCancelled else { return .failed(.cancelledBeforeSending(url.absoluteString)) }
        var headers = headers
        if method != "GET" && method != "HEAD" && !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
            headers["Content-Type"] = "application/json"
        }
        return await engine.send(method, url, headers: headers, body: body)
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    public static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

/// One engine's way of sending a request.
protocol Sending: Sendable {
    func send(_ method: String, _ url: URL, headers: [String: String], body: Data?) async -> DeviceTransport.Outcome
}

/// The failures both engines report, in the same words.
extension DeviceTransport.Failure {
    static func timeout(_ target: String) -> Self {
        Self(kind: .timeout, message: "\(target) did not answer in time.")
    }

    static func connectionLost(_ target: String, _ detail: String) -> Self {
        Self(kind: .connectionLost, message: "\(target): the connection broke before the answer came (\(detail)).")
    }

    static func cancelled(_ target: String) -> Self {
        Self(kind: .connectionLost, message: "\(target): the call was cancelled before the answer came; the request may have been received.")
    }

    static func cancelledBeforeSending(_ target: String) -> Self {
        Self(kind: .unreachable, message: "\(target): the call was cancelled before it was sent.")
    }

    static func unreachable(_ target: String, _ detail: String) -> Self {
        Self(kind: .unreachable, message: "\(target) cannot be reached: \(detail)")
    }

    static func invalidResponse(_ target: String) -> Self {
        Self(kind: .invalidResponse, message: "\(target): not an HTTP answer.")
    }
}
