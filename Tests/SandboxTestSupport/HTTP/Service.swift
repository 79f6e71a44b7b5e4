import Foundation
import SandboxHTTP
import SandboxHTTPClient

/// A service of a running sandbox (an environment host, the inbox) seen over HTTP: JSON in,
/// ``HTTPReply`` out, from synchronous and asynchronous tests alike.
public struct Service: Sendable {
    /// One client for every suite; it pools keep-alive connections and is safe to share.
    public static let http = HTTPClient(configuration: .init(connectTimeout: .seconds(5), totalTimeout: .seconds(60)))

    /// The region id, used to label every request (empty: the label is the request alone).
    public var name: String
    /// `http://127.0.0.1:PORT`.
    public var baseURL: String
    /// The service's own responder, when it runs in this process and a test needs no socket:
    /// requests are answered in process (``InProcessTransport``); nil: over HTTP to `baseURL`.
    public var responder: (any Responder)?

    public init(name: String = "", baseURL: String, responder: (any Responder)? = nil) {
        self.name = name
        self.baseURL = baseURL
        self.responder = responder
    }

    /// The same service over HTTP, for what only a socket shows (body limits, framing, deadlines).
    public var overHTTP: Service { Service(name: name, baseURL: baseURL) }

    /// Sends a request; `body` is a JSON object (sorted keys, so the same object is the same bytes),
    /// or `raw` text as it is.
    public func call(
        _ method: String, _ path: String, bearer: String? = nil, authorization: String? = nil, body: [String: Any]? = nil,
        raw: String? = nil, headers extra: [(String, String)] = []
    ) -> HTTPReply {
        let (request, label) = prepare(method, path, bearer: bearer, authorization: authorization, body: body, raw: raw, extra)
        if let responder {
            return Self.reply(label, InProcessTransport.send(request, to: responder))
        }
        do {
            return Self.reply(label, try Self.http.send(request))
        } catch {
            return HTTPReply(request: label, status: 0, text: "transport error: \(error)", json: nil)
        }
    }

    /// ``call(_:_:bearer:authorization:body:raw:headers:)`` from an asynchronous test.
    public func call(
        _ method: String, _ path: String, bearer: String? = nil, authorization: String? = nil, body: [String: Any]? = nil,
        raw: String? = nil, headers extra: [(String, String)] = []
    ) async -> HTTPReply {
        let (request, label) = prepare(method, path, bearer: bearer, authorization: authorization, body: body, raw: raw, extra)
        if let responder {
            return Self.reply(label, await InProcessTransport.send(request, to: responder))
        }
        do {
            return Self.reply(label, try await Self.http.send(request))
        } catch {
            return HTTPReply(request: label, status: 0, text: "transport error: \(error)", json: nil)
        }
    }

    /// A GET of any URL (a receipt page), labelled like the others.
    public func fetch(_ url: String) async -> HTTPReply {
        let label = "\(prefix)GET \(url)"
        do {
            let response = try await Self.http.send(HTTPClientRequest(method: .get, url: url, headers: [:], body: []))
            let json = try? JSONSerialization.jsonObject(with: Data(response.body))
            return HTTPReply(request: label, status: response.status, text: response.bodyText, json: json, headers: response.headers)
        } catch {
            return HTTPReply(request: label, status: 0, text: "transport error: \(error)", json: nil)
        }
    }

    private var prefix: String { name.isEmpty ? "" : "[\(name)] " }

    private func prepare(
        _ method: String, _ path: String, bearer: String?, authorization: String?, body: [String: Any]?, raw: String?,
        _ extra: [(String, String)]
    ) -> (HTTPClientRequest, String) {
        var headers: HTTPClientHeaders = ["Accept": "application/json"]
        if let bearer { headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let authorization { headers.add(name: "Authorization", value: authorization) }
        for (name, value) in extra { headers.add(name: name, value: value) }
        var bytes: [UInt8] = []
        if let body {
            bytes = Array((try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data())
        } else if let raw {
            bytes = Array(raw.utf8)
        }
        // Body or not, a write declares JSON, as the services require (SiteGate); a test that
        // sends another type names it in `headers`.
        let declared = extra.contains { $0.0.lowercased() == "content-type" }
        if !declared && (!bytes.isEmpty || (method != "GET" && method != "HEAD")) {
            headers.add(name: "Content-Type", value: "application/json")
        }
        let request = HTTPClientRequest(method: .init(rawValue: method), url: baseURL + path, headers: headers, body: bytes)
        return (request, "\(prefix)\(method) \(path)")
    }

    private static func reply(_ label: String, _ result: InProcessTransport.HTTPClientResult) -> HTTPReply {
        switch result {
        case .success(let response): reply(label, response)
        case .failure(let failure): HTTPReply(request: label, status: 0, text: "transport error: \(failure)", json: nil)
        }
    }

    private static func reply(_ label: String, _ response: HTTPClientResponse) -> HTTPReply {
        let json =
            response.body.isEmpty ? nil : try? JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed])
        return HTTPReply(request: label, status: response.status, text: response.bodyText, json: json, headers: response.headers)
    }
}
