import DeviceTransport
import Foundation
import SandboxWire
import SimulatedReader

/// A 204 answer, or one whose body the SDK does not need.
struct NoContent: Decodable, Sendable {}


/// The terminal API of one sandbox host: JSON bodies in and out, the bearer session token, and the
/// error envelope turned into ``TapOnMobileError``.
///
/// The requests go over ``DeviceTransport`` (URLSession on Apple platforms, libcurl on Linux).
///
/// ```swift
/// let client = TerminalClient(baseURL: url, timeout: 15)
/// let info: Result<TerminalInfo, TapOnMobileError> = await client.send("GET", "/terminal/v1/terminal", bearer: token)
/// ```
struct TerminalClient: Sendable {
    let baseURL: URL
    private let transport: DeviceTransport

    init(baseURL: URL, timeout: TimeInterval) {
        self.baseURL = baseURL
        transport = DeviceTransport(timeout: timeout, userAgent: "TapOnMobileSandbox")
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
        var headers: [String: String] = [:]
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        if let idempotencyKey { headers["Idempotency-Key"] = idempotencyKey }
        var data: Data?
        if let body {
            do {
                data = try JSONEncoder().encode(body)
            } catch {
                return .failure(.validation(ValidationError(.invalidJSON, message: "The request could not be encoded: \(error)")))
            }
            headers["Content-Type"] = "application/json"
        }

        switch await transport.send(method, url, headers: headers, body: data) {
        case .failed(let failure):
            return .failure(.network(NetworkError(Self.kind(failure.kind), message: failure.message)))
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

    /// The customer a test queued on this host for `terminalId`'s next card screen, taken (``ScriptedCustomer``).
    func scriptedCustomer(terminalId: String) async -> CardScript? {
        await ScriptedCustomer.next(host: baseURL, terminalId: terminalId, transport: transport)
    }

    private static func kind(_ kind: DeviceTransport.Failure.Kind) -> NetworkErrorKind {
        switch kind {
        case .unreachable: .unreachable
        case .timeout: .timeout
        case .connectionLost: .connectionLost
        case .invalidResponse: .invalidResponse
        }
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    static func encode(_ text: String) -> String {
        DeviceTransport.encode(text)
    }
}
