import Foundation
import SandboxHTTP
import SandboxHTTPClient
import Synchronization

/// Requests answered by a service's own ``Responder`` in this process, with no socket between
/// (Hummingbird's router-mode testing is the model): what a route test needs is the route's
/// answer, not libcurl's and libmicrohttpd's trip through the loopback. The request is shaped as
/// the server shapes it (path and query percent-decoded, header names lower-cased, repeated ones
/// joined, the client at 127.0.0.1, `X-Request-Id` on the answer); the loopback suites keep the
/// real servers for what only a socket shows (limits, deadlines, framing).
enum InProcessTransport {
    private static let sequence = Atomic<Int>(0)

    /// The request the server would hand the responder for `request`.
    static func request(for request: HTTPClientRequest) -> Request {
        let url = URLComponents(string: request.url)
        let path = url?.percentEncodedPath ?? ""
        var headers: [String: String] = [:]
        for field in request.headers {
            let key = field.name.lowercased()
            headers[key] = headers[key].map { $0 + ", " + field.value } ?? field.value
        }
        if let host = url?.host {
            headers["host"] = headers["host"] ?? host + (url?.port.map { ":\($0)" } ?? "")
        }
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method.rawValue) {
            headers["content-length"] = String(request.body.count)
        }
        let id = "inproc_" + String(sequence.add(1, ordering: .relaxed).newValue, radix: 36)
        return Request(
            method: request.method.rawValue, path: decode(path.isEmpty ? "/" : path[...], plusIsSpace: false),
            query: Self.query((url?.percentEncodedQuery ?? "")[...]), headers: headers,
            body: request.body, id: headers["x-request-id"] ?? id, clientAddress: "127.0.0.1")
    }

    /// `a=1&b=x+y` as the server reads it: `+` is a space, `%XX` a byte; a name without `=` is empty.
    static func query(_ text: Substring) -> [String: String] {
        var values: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(parts[0], plusIsSpace: true)
            let value = parts.count > 1 ? decode(parts[1], plusIsSpace: true) : ""
            values[name] = values[name].map { $0 + ", " + value } ?? value
        }
        return values
    }

    private static func decode(_ text: Substring, plusIsSpace: Bool) -> String {
        let spaced = plusIsSpace ? text.replacingOccurrences(of: "+", with: " ") : String(text)
        return spaced.removingPercentEncoding ?? spaced
    }

    /// Sends `request` to `responder` and waits for its answer.
    static func send(_ request: HTTPClientRequest, to responder: any Responder) -> HTTPClientResult {
        let shaped = Self.request(for: request)
        let done = DispatchSemaphore(value: 0)
        let answer = Mutex<Answering?>(nil)
        responder.respond(to: shaped) { made in
            answer.withLock { $0 = made }
            done.signal()
        }
        done.wait()
        return response(answer.withLock { $0 }!(), to: shaped)
    }

    /// ``send(_:to:)`` from an asynchronous test: the task waits, not a thread.
    static func send(_ request: HTTPClientRequest, to responder: any Responder) async -> HTTPClientResult {
        let shaped = Self.request(for: request)
        let made: Answering = await withCheckedContinuation { continuation in
            responder.respond(to: shaped) { made in continuation.resume(returning: made) }
        }
        return response(made(), to: shaped)
    }

    typealias HTTPClientResult = Result<HTTPClientResponse, TransportFailure>

    /// What a client sees when the server drops the connection instead of answering.
    struct TransportFailure: Error, CustomStringConvertible {
        var description: String
    }

    private static func response(_ response: Response, to request: Request) -> HTTPClientResult {
        if response.dropsConnection {
            return .failure(TransportFailure(description: "the server closed the connection without an answer (in-process)"))
        }
        var headers = HTTPClientHeaders()
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        headers.add(name: "X-Request-Id", value: request.id)
        let body = request.method == "HEAD" ? [] : response.body
        headers.add(name: "Content-Length", value: String(response.body.count))
        return .success(HTTPClientResponse(status: response.status, headers: headers, body: body))
    }
}
