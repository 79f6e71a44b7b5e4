import Foundation
import SandboxHTTP
import Synchronization
import SandboxTestSupport

/// A webhook receiver for the tests: the project's own `Server` and `Router` on a loopback port,
/// recording every request (headers, body, the status it was answered) and answering whatever
/// the test programs (500 until told otherwise, 410, 429 with `Retry-After`, slow answers…).
///
/// It can be stopped and started again on the same port, so a host sees it go down and come back.
final class Receiver: Sendable {
    /// One request as it arrived, and what it was answered.
    struct Received: Sendable {
        let arrivedAt: Date
        let path: String
        /// Lower-cased names.
        let headers: [String: String]
        let body: [UInt8]
        let answered: Int

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
        var eventId: String? { json["id"] as? String }
        var type: String? { json["type"] as? String }
        var data: [String: Any] { json["data"] as? [String: Any] ?? [:] }
        var paymentId: String? { data["paymentId"] as? String }
        var delivered: Bool { (200..<300).contains(answered) }
    }

    /// What the next requests are answered.
    struct Answer: Sendable {
        var status: Int
        var retryAfter: String?
        var delay: Duration = .zero
        var body: String?
        /// A `Location` header (a redirect's target).
        var location: String?
    }

    private struct State {
        var answer: Answer
        var received: [Received] = []
        /// Requests being answered now, and the most there ever were at once.
        var inFlight = 0
        var maxInFlight = 0
    }

    /// The state the server's handlers and the test share.
    private final class Shared: Sendable {
        let state: Mutex<State>
        init(_ answer: Answer) { state = Mutex(State(answer: answer)) }
    }

    private let shared: Shared
    private let server: Mutex<Server?>
    /// The port, chosen at the first start (or given).
    let port: UInt16
    /// The loopback address it listens on (127.0.0.1 unless a test needs a second one).
    let address: String

    /// Starts listening (on `port`, 0: one the system picks) unless `started` is false, in which
    /// case the port is only reserved by number and refuses connections until ``start()``.
    init(answering status: Int = 200, port: UInt16 = 0, address: String = "127.0.0.1", started: Bool = true) throws {
        shared = Shared(Answer(status: status))
        server = Mutex(nil)
        self.address = address
        if started {
            let server = Self.makeServer(address: address, port: port, shared: shared)
            try server.start()
            self.port = server.port
            self.server.withLock { $0 = server }
        } else {
            self.port = port == 0 ? freePort() : port
        }
    }

    deinit { stop() }

    private static func makeServer(address: String, port: UInt16, shared: Shared) -> Server {
        var router = Router()
        let record: Handler = { request in
            // The answer is decided, and the request recorded, as it arrives.
            let answer = shared.state.withLock { state in
                state.received.append(
                    Received(
                        arrivedAt: Date(), path: request.path, headers: request.headers, body: request.body,
                        answered: state.answer.status))
                state.inFlight += 1
                state.maxInFlight = max(state.maxInFlight, state.inFlight)
                return state.answer
            }
            defer { shared.state.withLock { $0.inFlight -= 1 } }
            if answer.delay > .zero {
                let (seconds, attoseconds) = answer.delay.components
                usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
            }
            var headers: [(String, String)] = [("Content-Type", "text/plain")]
            if let retryAfter = answer.retryAfter { headers.append(("Retry-After", retryAfter)) }
            if let location = answer.location { headers.append(("Location", location)) }
            return Response(
                status: answer.status, headers: headers, body: Array((answer.body ?? "answered \(answer.status)").utf8))
        }
        router.post("/hook") { try record($0) }
        router.post("/callback") { try record($0) }
        router.fallback = Fallback(handler: record)
        return Server(
            name: "test-receiver", configuration: ServerConfiguration(host: address, port: port, drainSeconds: 0.1),
            responder: router)
    }

    private struct Fallback: Responder {
        let handler: Handler
        func respond(to request: Request) -> Response { (try? handler(request)) ?? Response(status: 500) }
    }

    /// `http://127.0.0.1:PORT/hook`: the merchant endpoint.
    var hookURL: String { "http://127.0.0.1:\(port)/hook" }
    /// `http://127.0.0.1:PORT/callback`: a payment's callbackUrl.
    var callbackURL: String { "http://127.0.0.1:\(port)/callback" }

    /// Starts (again) on the same port.
    func start() throws {
        let server = Self.makeServer(address: address, port: port, shared: shared)
        try server.start()
        self.server.withLock { $0 = server }
    }

    /// Stops listening; the port refuses connections until ``start()``.
    func stop() {
        let running = server.withLock { server in
            defer { server = nil }
            return server
        }
        running?.stop()
    }

    func answer(_ status: Int, retryAfter: String? = nil, delay: Duration = .zero, body: String? = nil, location: String? = nil) {
        shared.state.withLock { $0.answer = Answer(status: status, retryAfter: retryAfter, delay: delay, body: body, location: location) }
    }

    /// Requests being answered now.
    var inFlight: Int { shared.state.withLock { $0.inFlight } }

    /// The most requests that were being answered at once.
    var maxInFlight: Int { shared.state.withLock { $0.maxInFlight } }

    /// Every request so far, in arrival order.
    var received: [Received] { shared.state.withLock { $0.received } }

    /// Requests for one event, in arrival order.
    func attempts(of eventId: String) -> [Received] { received.filter { $0.eventId == eventId } }

    /// What an application that removes repeats by event id got: the first delivered (2xx)
    /// request of each event, in arrival order.
    var application: [Received] {
        var seen = Set<String>()
        return received.filter { request in
            guard request.delivered, let id = request.eventId else { return false }
            return seen.insert(id).inserted
        }
    }

    /// Event ids answered 2xx at least once.
    var deliveredIds: Set<String> { Set(received.filter(\.delivered).compactMap(\.eventId)) }
}
