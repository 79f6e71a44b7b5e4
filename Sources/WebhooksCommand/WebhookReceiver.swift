import Foundation
import SandboxHTTP
import SandboxHTTPClient
import SandboxWire
import WebhookSignature

/// What `webhooks listen` does with each request: verify, print, answer, and maybe forward.
///
/// Only `POST` is accepted, on any path. A verified webhook is answered 200 `{"received":true}`,
/// or, with a forward URL, with the backend's own status and body (502 `forward_failed` when it
/// cannot be reached), so the sender's retry schedule sees what the backend did. A refused one is
/// answered 400 with the verification reason as the error code, and is not forwarded.
///
/// Called on the server's threads: it holds only `Sendable` state.
struct WebhookReceiver: Responder {
    enum Output: Sendable { case text, json }

    let verifier: WebhookVerifier
    let forwardTo: String?
    let output: Output
    let print: @Sendable (String) -> Void
    let client = HTTPClient(configuration: .init(totalTimeout: .seconds(15)))

    /// Headers that describe one hop of the connection, not the message: never relayed.
    static let hopByHop: Set<String> = [
        "host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "expect",
        "proxy-authorization", "proxy-connection",
    ]

    func respond(to request: Request) -> Response {
        guard request.method == "POST" else {
            return HTTPError.methodNotAllowed(allowed: ["POST"]).response
        }
        let verified: VerifiedWebhook
        do {
            verified = try verifier.verify(headers: request.headers, body: request.body)
        } catch {
            report(request, verified: nil, refusal: error, forwarded: nil, status: 400)
            return HTTPError(
                status: 400, code: ErrorCode(rawValue: error.reason), message: error.message, field: error.header.map { "header.\($0)" }
            ).response
        }
        guard let forwardTo else {
            report(request, verified: verified, refusal: nil, forwarded: nil, status: 200)
            return .json(["received": true])
        }
        var headers = HTTPClientHeaders()
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) where !Self.hopByHop.contains(name) {
            headers.add(name: name, value: value)
        }
        do {
            let answer = try client.send(HTTPClientRequest(method: .post, url: forwardTo, headers: headers, body: request.body))
            report(request, verified: verified, refusal: nil, forwarded: .success(answer.status), status: answer.status)
            var relayed = Response(status: answer.status, body: answer.body)
            if let type = answer.headers.first(name: "Content-Type") { relayed.headers.append(("Content-Type", type)) }
            return relayed
        } catch {
            report(request, verified: verified, refusal: nil, forwarded: .failure(error), status: 502)
            return HTTPError(status: 502, code: .forwardFailed, message: "The forward target did not answer: \(error.message)")
                .response
        }
    }

    /// One text line (and the body) or one JSON object per request.
    private func report(
        _ request: Request, verified: VerifiedWebhook?, refusal: WebhookVerificationError?,
        forwarded: Result<Int, HTTPClientError>?, status: Int
    ) {
        let event = EventSummary(body: request.body)
        switch output {
        case .json:
            // Every header as received (lower-cased names), so a capture can be checked again later,
            // by `webhooks verify` or by another library.
            var object: [String: Any] = [
                "status": status, "path": request.path, "bytes": request.body.count, "verified": verified != nil,
                "headers": request.headers,
            ]
            if let verified {
                object["scheme"] = verified.scheme.rawValue
                object["timestamp"] = verified.timestamp
                if let id = verified.id { object["id"] = id }
            }
            if let refusal {
                object["reason"] = refusal.reason
                object["message"] = refusal.message
            }
            if let type = event.type { object["type"] = type }
            if let text = event.text { object["body"] = text }
            switch forwarded {
            case .success(let code): object["forwardStatus"] = code
            case .failure(let error): object["forwardError"] = error.description
            case nil: break
            }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            print(String(decoding: data, as: UTF8.self))
        case .text:
            var line: String
            if let verified {
                line = "verified \(status) POST \(request.path) \(Describe.verified(verified))"
            } else {
                line = "rejected \(status) POST \(request.path) \(refusal?.description ?? "")"
            }
            if let type = event.type { line += " type=\(type)" }
            line += " (\(request.body.count) bytes)"
            switch forwarded {
            case .success(let code): line += " → forwarded, \(code)"
            case .failure(let error): line += " → forward failed: \(error)"
            case nil: break
            }
            print(line)
            if verified != nil {
                print("  " + (event.text.map { $0.count > 4096 ? String($0.prefix(4096)) + "…" : $0 } ?? "(binary body)"))
            }
        }
    }
}
