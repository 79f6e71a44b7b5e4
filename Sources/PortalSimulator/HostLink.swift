import Foundation
import SandboxHTTP
import SandboxHTTPClient
import SandboxWire

/// One environment host as the portal reaches it: server to server, with the region's
/// back-office key, as a real acquirer's portal talks to its back office. The browser never
/// sees the key or the host.
struct HostLink: Sendable {
    let environment: PortalSimulator.Environment
    let client: HTTPClient

    /// What the host answered: its status and its JSON body (an error envelope on a refusal).
    struct Answer: Sendable {
        let status: Int
        let body: [UInt8]
        /// The host's `Content-Type` (JSON, or CSV for an export).
        var contentType = "application/json"
        /// The host's `Retry-After`, on a throttled check (429 `too_many_attempts`).
        var retryAfter: String?

        /// The host's stable error code, when it refused.
        var errorCode: ErrorCode? {
            guard status >= 400 else { return nil }
            return (try? JSONDecoder().decode(ErrorEnvelope.self, from: Data(body)))?.error.code
        }

        /// The answer as the portal's own: the host's status and body, so its error envelope
        /// (code, message, field) reaches the page unchanged. A host error (5xx) is not relayed
        /// as such: the portal says the host failed.
        func relayed(region: String) throws(HTTPError) -> Response {
            guard status < 500 else { throw HostLink.unavailable(region) }
            if status == 204 { return Response(status: 204) }
            // A throttled person is told how long to wait through the portal as by the host.
            let wait = retryAfter.map { [("Retry-After", $0)] } ?? []
            return Response(status: status, headers: [("Content-Type", contentType)] + wait, body: body)
        }
    }

    /// Sends one back-office call; `path` is built from values the routes validated. `controlKey`
    /// goes along as `X-Sandbox-Control-Key` (sandbox control of a host that listens beyond loopback).
    func send(
        _ method: HTTPClientRequest.Method, _ path: String, body: [UInt8] = [], controlKey: String? = nil
    ) throws(HTTPError) -> Answer {
        guard let key = environment.backOfficeKey else {
            throw HTTPError(
                status: 502, code: .environmentUnavailable,
                message: "The portal has no back-office key for the \(environment.region) host (no fixtures for it).")
        }
        var headers: HTTPClientHeaders = ["Authorization": "Bearer \(key)"]
        // Body or not: a host refuses a write that does not declare JSON (SiteGate).
        if method != .get { headers.add(name: "Content-Type", value: "application/json") }
        if let controlKey { headers.add(name: ControlGate.header, value: controlKey) }
        let request = HTTPClientRequest(method: method, url: environment.url + path, headers: headers, body: body)
        guard let response = try? client.send(request) else { throw Self.unavailable(environment.region) }
        return Answer(
            status: response.status, body: response.body, contentType: response.headers.first(name: "Content-Type") ?? "application/json",
            retryAfter: response.headers.first(name: "Retry-After"))
    }

    static func unavailable(_ region: String) -> HTTPError {
        HTTPError(status: 502, code: .environmentUnavailable, message: "The \(region) host does not answer.")
    }
}
