import Foundation
import SandboxHTTP
import Synchronization

/// A payment callback receiver on a loopback port: it records every POST (headers, raw body) and
/// answers 200.
final class CallbackReceiver: Sendable {
    struct Received: Sendable {
        let path: String
        /// Lower-cased names.
        let headers: [String: String]
        let body: [UInt8]

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private final class Shared: Sendable {
        let received = Mutex<[Received]>([])
    }

    private let shared = Shared()
    private let server: Server

    init() throws {
        var router = Router()
        let shared = shared
        router.post("/callback") { request in
            shared.received.withLock { $0.append(Received(path: request.path, headers: request.headers, body: request.body)) }
            return Response(status: 200, headers: [("Content-Type", "application/json")], body: Array(#"{"received":true}"#.utf8))
        }
        server = Server(
            name: "callback-receiver", configuration: ServerConfiguration(host: "127.0.0.1", port: 0, drainSeconds: 0.1), responder: router)
        try server.start()
    }

    deinit { server.stop() }

    var url: String { "http://127.0.0.1:\(server.port)/callback" }
    var received: [Received] { shared.received.withLock { $0 } }
}
