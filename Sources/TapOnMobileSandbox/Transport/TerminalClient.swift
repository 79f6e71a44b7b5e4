import Foundation
import SandboxWire

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if os(Linux)
import SandboxHTTPClient
#endif

/// A 204 answer, or one whose body the SDK does not need.
struct NoContent: Decodable, Sendable {}

/// The terminal API of one sandbox host: JSON bodies in and out, the bearer session token, and the
/// error envelope turned into ``TapOnMobileError``.
///
/// On Apple platforms it goes over URLSession. On Linux it goes over libcurl (`SandboxHTTPClient`):
/// FoundationNetworking's URLSession spins until its timeout when a server closes the connection
/// without answering (the "outcome unknown" fault), where libcurl reports it at once.
///
/// ```swift
/// let client = TerminalClient(baseURL: url, timeout: 15)
/// let info: Result<TerminalInfo, TapOnMobileError> = await client.send("GET", "/terminal/v1/terminal", bearer: token)
/// ```
struct TerminalClient: Sendable {
    let baseURL: URL
    private let owner: SessionOwner

    private var session: URLSession { owner.session }
    #if os(Linux)
    private let curl: HTTPClient
    #endif

    init(baseURL: URL, timeout: TimeInterval) {
        self.baseURL = baseURL
        #if os(Linux)
        curl = HTTPClient(
            configuration: .init(
                connectTimeout: .milliseconds(Int64(min(timeout, 5) * 1000)), totalTimeout: .milliseconds(Int64(timeout * 1000)),
                maxResponseBodySize: 16 << 20, userAgent: "TapOnMobileSandbox"))
        #endif
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpAdditionalHeaders = ["Accept": "application/json"]
        owner = SessionOwner(URLSession(configuration: configuration))
    }

    /// Holds the URLSession and lets it go (after its running tasks) when the client goes.
    private final class SessionOwner: @unchecked Sendable {
        let session: URLSession

        init(_ session: URLSession) {
            self.session = session
        }

        deinit {
            session.finishTasksAndInvalidate()
        }
    }

    /// What came back, reduced to what the SDK reads (Sendable, unlike `URLResponse`).
    private enum Outcome: Sendable {
        case answer(status: Int, body: Data)
        case failed(TapOnMobileError)
    }

    /// Sends one request and decodes the answer.
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, `PUT`, `DELETE`.
    ///   - path: The path from the host's root, `/terminal/v1/sessions`.
    ///   - query: Query parameters, percent-encoded here (a `+` in an ISO 8601 offset goes as `%2B`, never read as a space).
    ///   - body: Encoded as JSON with `Content-Type: application/json`.
    ///   - bearer: The session token, sent as `Authorization: Bearer …`.
    ///   - idempotencyKey: Sent as `Idempotency-Key` on calls that move money.
    /// - Returns: The decoded answer, or the error: the host's envelope mapped by
    ///   ``TapOnMobileError/host(status:code:message:field:)``, or a ``NetworkError``.
    func send<Answer: Decodable>(
        _ method: String, _ path: String, query: [(String, String)] = [], body: (any Encodable)? = nil,
        bearer: String? = nil, idempotencyKey: String? = nil, as type: Answer.Type = Answer.self
    ) async -> Result<Answer, TapOnMobileError> {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path
        if !query.isEmpty {
            text += "?" + query.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&")
        }
        guard let url = URL(string: text) else {
            return .failure(.network(NetworkError(.unreachable, message: "\(text) is not a URL.")))
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let idempotencyKey { request.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key") }
        if let body {
            do {
                request.httpBody = try JSONEncoder().encode(body)
            } catch {
                return .failure(.validation(ValidationError(.invalidJSON, message: "The request could not be encoded: \(error)")))
            }
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }

        switch await perform(request) {
        case .failed(let error):
            return .failure(error)
        case .answer(let status, let data) where (200..<300).contains(status):
            if Answer.self == NoContent.self, let empty = NoContent() as? Answer { return .success(empty) }
            do {
                return .success(try JSONDecoder().decode(Answer.self, from: data))
            } catch {
                return .failure(
                    .network(NetworkError(.invalidResponse, message: "\(method) \(path): the answer does not decode: \(error)",
                                          status: status)))
            }
        case .answer(let status, let data):
            guard let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: data) else {
                return .failure(.network(.http(status: status, code: "http_\(status)")))
            }
            return .failure(
                .host(status: status, code: envelope.error.code, message: envelope.error.message ?? envelope.error.code.rawValue,
                      field: envelope.error.field))
        }
    }

    private func perform(_ request: URLRequest) async -> Outcome {
        let target = request.url?.absoluteString ?? "?"
        #if os(Linux)
        var headers: HTTPClientHeaders = ["Accept": "application/json"]
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers.add(name: name, value: value) }
        let call = HTTPClientRequest(
            method: .init(rawValue: request.httpMethod ?? "GET"), url: target, headers: headers,
            body: request.httpBody.map { [UInt8]($0) } ?? [])
        do {
            let response = try await curl.send(call)
            return .answer(status: response.status, body: Data(response.body))
        } catch where error == .timedOut {
            return .failed(.network(NetworkError(.timeout, message: "\(target) did not answer in time.")))
        } catch where error == .connectionFailed || error == .hostNotFound {
            return .failed(.network(NetworkError(.unreachable, message: "\(target) cannot be reached: \(error.message)")))
        } catch where error == .transport {
            // Connected and sent: the answer broke off (an empty reply, a cut body, a reset).
            return .failed(
                .network(NetworkError(.connectionLost, message: "\(target): the connection broke before the answer came (\(error.message)).")))
        } catch {
            return .failed(.network(NetworkError(.unreachable, message: "\(target) cannot be reached: \(error.message)")))
        }
        #else
        return await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(returning: .failed(Self.transportError(error, target: target)))
                } else if let http = response as? HTTPURLResponse {
                    continuation.resume(returning: .answer(status: http.statusCode, body: data ?? Data()))
                } else {
                    continuation.resume(
                        returning: .failed(.network(NetworkError(.invalidResponse, message: "\(target): not an HTTP answer."))))
                }
            }
            task.resume()
        }
        #endif
    }

    private static func transportError(_ error: any Error, target: String) -> TapOnMobileError {
        if let error = error as? URLError, error.code == .timedOut {
            return .network(NetworkError(.timeout, message: "\(target) did not answer in time."))
        }
        if let error = error as? URLError, error.code == .networkConnectionLost {
            return .network(NetworkError(.connectionLost, message: "\(target): the connection broke before the answer came."))
        }
        return .network(NetworkError(.unreachable, message: "\(target) cannot be reached: \(error.localizedDescription)"))
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
