import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if os(Linux)
import SandboxHTTPClient
#endif

/// The HTTP calls of the device libraries (TapOnMobile, MONEI): one request out, its status and
/// body back, or why there is no answer, in the terms an SDK decides on (was the request possibly
/// received?).
///
/// On Apple platforms it goes over URLSession. On Linux it goes over libcurl (`SandboxHTTPClient`):
/// FoundationNetworking's URLSession spins until its timeout when a server closes the connection
/// without answering (the "outcome unknown" fault), where libcurl reports it at once.
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
            /// No connection was made: the request was not sent.
            case unreachable
            /// Sent, and no answer came in time.
            case timeout
            /// Sent, and the connection broke before the answer was whole.
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

    #if os(Linux)
    private let curl: HTTPClient
    #else
    private let owner: SessionOwner
    #endif

    /// A transport.
    ///
    /// - Parameters:
    ///   - timeout: Seconds a whole request may take (connecting: at most 5 of them).
    ///   - userAgent: Sent as `User-Agent`.
    public init(timeout: TimeInterval, userAgent: String) {
        #if os(Linux)
        curl = HTTPClient(
            configuration: .init(
                connectTimeout: .milliseconds(Int64(min(timeout, 5) * 1000)), totalTimeout: .milliseconds(Int64(timeout * 1000)),
                maxResponseBodySize: 16 << 20, userAgent: userAgent))
        #else
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpAdditionalHeaders = ["Accept": "application/json", "User-Agent": userAgent]
        owner = SessionOwner(URLSession(configuration: configuration))
        #endif
    }

    #if !os(Linux)

    /// Holds the URLSession and lets it go (after its running tasks) when the transport goes.
    private final class SessionOwner: @unchecked Sendable {
        let session: URLSession

        init(_ session: URLSession) {
            self.session = session
        }

        deinit {
            session.finishTasksAndInvalidate()
        }
    }
    #endif

    /// Sends one request; `Accept: application/json` goes with every one.
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, `PUT`, `DELETE`.
    ///   - url: The whole URL.
    ///   - headers: Further headers (`Authorization`, `Content-Type`, `Idempotency-Key`).
    ///   - body: The body, if any.
    /// - Returns: The status and body, or why there is none.
    public func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) async -> Outcome {
        let target = url.absoluteString
        #if os(Linux)
        var fields: HTTPClientHeaders = ["Accept": "application/json"]
        for (name, value) in headers { fields.add(name: name, value: value) }
        let call = HTTPClientRequest(method: .init(rawValue: method), url: target, headers: fields, body: body.map { [UInt8]($0) } ?? [])
        do {
            let response = try await curl.send(call)
            return .answer(status: response.status, body: Data(response.body))
        } catch where error == .timedOut {
            return .failed(Failure(kind: .timeout, message: "\(target) did not answer in time."))
        } catch where error == .transport {
            // Connected and sent: the answer broke off (an empty reply, a cut body, a reset).
            return .failed(Failure(kind: .connectionLost, message: "\(target): the connection broke before the answer came (\(error.message))."))
        } catch {
            return .failed(Failure(kind: .unreachable, message: "\(target) cannot be reached: \(error.message)"))
        }
        #else
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        return await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let task = owner.session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(returning: .failed(Self.failure(error, target: target)))
                } else if let http = response as? HTTPURLResponse {
                    continuation.resume(returning: .answer(status: http.statusCode, body: data ?? Data()))
                } else {
                    continuation.resume(returning: .failed(Failure(kind: .invalidResponse, message: "\(target): not an HTTP answer.")))
                }
            }
            task.resume()
        }
        #endif
    }

    #if !os(Linux)
    private static func failure(_ error: any Error, target: String) -> Failure {
        if let error = error as? URLError, error.code == .timedOut {
            return Failure(kind: .timeout, message: "\(target) did not answer in time.")
        }
        if let error = error as? URLError, error.code == .networkConnectionLost {
            return Failure(kind: .connectionLost, message: "\(target): the connection broke before the answer came.")
        }
        return Failure(kind: .unreachable, message: "\(target) cannot be reached: \(error.localizedDescription)")
    }
    #endif

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    public static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
