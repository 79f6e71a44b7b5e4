import Foundation
import SandboxWire

/// The one JSON client of the device side, over ``DeviceTransport``: a path under a base URL,
/// a body encoded as JSON, the answer decoded, and a refusal read as the sandbox's error envelope.
/// Each SDK (and tapsim) maps an ``Answer`` into its own errors; none builds URLs, encodes bodies
/// or reads envelopes itself.
///
/// ```swift
/// let client = JSONClient(baseURL: host, timeout: 15, userAgent: "TapOnMobileSandbox")
/// switch await client.send("GET", "/terminal/v1/terminal", bearer: token, as: TerminalInfo.self) {
/// case .value(let info): print(info.terminalId)
/// case .refused(let status, let envelope, _): print(status, envelope?.error.code.rawValue ?? "no envelope")
/// case .failed(let failure) where failure.kind == .unreachable: print("not sent")
/// case .failed, .undecodable: print("the host may have done it")
/// case .invalidURL, .unencodable: print("not sent")
/// }
/// ```
public struct JSONClient: Sendable {
    public let baseURL: URL
    public let transport: DeviceTransport

    public init(baseURL: URL, transport: DeviceTransport) {
        self.baseURL = baseURL
        self.transport = transport
    }

    /// A client over a transport of its own (see ``DeviceTransport/init(timeout:userAgent:)``).
    public init(baseURL: URL, timeout: TimeInterval, userAgent: String) {
        self.init(baseURL: baseURL, transport: DeviceTransport(timeout: timeout, userAgent: userAgent))
    }

    /// An answer whose body the caller does not read (204, or one it ignores).
    public struct Empty: Decodable, Sendable {
        public init() {}
        public init(from decoder: any Decoder) throws {}
    }

    /// How a call ended.
    public enum Answer<Value: Sendable>: Sendable {
        /// A 2xx answer whose body decodes as `Value` (``Empty`` takes any body).
        case value(Value)
        /// An answer that is not 2xx: its status, the sandbox's envelope when the body is one, and the body.
        case refused(status: Int, envelope: ErrorEnvelope?, body: Data)
        /// A 2xx answer whose body does not decode: the request was received.
        case undecodable(status: Int, message: String)
        /// No answer; the failure's kind says whether the request may have been received.
        case failed(DeviceTransport.Failure)
        /// Not sent: the path does not make a URL under the base.
        case invalidURL(String)
        /// Not sent: the body does not encode as JSON.
        case unencodable(String)
    }

    /// Sends one request and decodes its answer.
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, `PUT`, `DELETE`.
    ///   - path: From the base URL's root: `/terminal/v1/sessions`.
    ///   - query: Percent-encoded here (a `+` in an ISO 8601 offset goes as `%2B`, never read as a space).
    ///   - body: Encoded as JSON, sent with `Content-Type: application/json`.
    ///   - json: A body already encoded as JSON (a seed file), sent as it is; instead of `body`.
    ///   - headers: Further headers (`Idempotency-Key`, MONEI's bare `Authorization`).
    ///   - bearer: Sent as `Authorization: Bearer …`.
    public func send<Value: Decodable & Sendable>(
        _ method: String, _ path: String, query: [(String, String)] = [], body: (any Encodable)? = nil, json: Data? = nil,
        headers: [String: String] = [:], bearer: String? = nil, as type: Value.Type = Value.self
    ) async -> Answer<Value> {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path
        if !query.isEmpty {
            text += "?" + query.map { DeviceTransport.encode($0.0) + "=" + DeviceTransport.encode($0.1) }.joined(separator: "&")
        }
        guard let url = URL(string: text) else { return .invalidURL("\(text) is not a URL") }
        var headers = headers
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        var data = json
        if json != nil { headers["Content-Type"] = "application/json" }
        if let body {
            do {
                data = try JSONEncoder().encode(body)
            } catch {
                return .unencodable("the request does not encode: \(error)")
            }
            headers["Content-Type"] = "application/json"
        }
        switch await transport.send(method, url, headers: headers, body: data) {
        case .failed(let failure):
            return .failed(failure)
        case .answer(let status, _) where (200..<300).contains(status) && Value.self == Empty.self:
            return .value(Empty() as! Value)
        case .answer(let status, let answer) where (200..<300).contains(status):
            do {
                return .value(try JSONDecoder().decode(Value.self, from: answer))
            } catch {
                return .undecodable(status: status, message: "\(method) \(path): the answer does not decode: \(error)")
            }
        case .answer(let status, let answer):
            return .refused(status: status, envelope: try? JSONDecoder().decode(ErrorEnvelope.self, from: answer), body: answer)
        }
    }
}
