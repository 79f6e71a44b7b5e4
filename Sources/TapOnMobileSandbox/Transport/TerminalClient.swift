import DeviceTransport
import Foundation
import SandboxWire
import SimulatedReader

/// A 204 answer, or one whose body the SDK does not need.
typealias NoContent = JSONClient.Empty

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
    private let client: JSONClient
    var baseURL: URL { client.baseURL }

    init(baseURL: URL, timeout: TimeInterval) {
        client = JSONClient(baseURL: baseURL, timeout: timeout, userAgent: "TapOnMobileSandbox")
    }

    /// Sends one request and decodes the answer (``JSONClient``).
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, `PUT`, `DELETE`.
    ///   - path: The path from the host's root, `/terminal/v1/sessions`.
    ///   - query: Query parameters, percent-encoded.
    ///   - body: Encoded as JSON with `Content-Type: application/json`.
    ///   - bearer: The session token, sent as `Authorization: Bearer …`.
    ///   - idempotencyKey: Sent as `Idempotency-Key` on calls that move money.
    /// - Returns: The decoded answer, or the error: the host's envelope mapped by
    ///   ``TapOnMobileError/host(status:code:message:field:)``, or a ``NetworkError``.
    func send<Answer: Decodable & Sendable>(
        _ method: String, _ path: String, query: [(String, String)] = [], body: (any Encodable)? = nil,
        bearer: String? = nil, idempotencyKey: String? = nil, as type: Answer.Type = Answer.self
    ) async -> Result<Answer, TapOnMobileError> {
        let headers = idempotencyKey.map { ["Idempotency-Key": $0] } ?? [:]
        switch await client.send(method, path, query: query, body: body, headers: headers, bearer: bearer, as: type) {
        case .value(let answer):
            return .success(answer)
        case .failed(let failure):
            return .failure(.network(NetworkError(Self.kind(failure.kind), message: failure.message)))
        case .invalidURL(let message):
            return .failure(.network(NetworkError(.unreachable, message: message + ".")))
        case .unencodable(let message):
            return .failure(.validation(ValidationError(.invalidJSON, message: message)))
        case .undecodable(let status, let message):
            return .failure(.network(NetworkError(.invalidResponse, message: message, status: status)))
        case .refused(let status, let envelope?, _):
            return .failure(
                .host(status: status, code: envelope.error.code, message: envelope.error.message ?? envelope.error.code.rawValue,
                      field: envelope.error.field))
        case .refused(let status, nil, _):
            return .failure(.network(.http(status: status, code: "http_\(status)")))
        }
    }

    /// The customer a test queued on this host for `terminalId`'s next card screen, taken (``ScriptedCustomer``).
    func scriptedCustomer(terminalId: String) async -> CardScript? {
        await ScriptedCustomer.next(host: baseURL, terminalId: terminalId, transport: client.transport)
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
