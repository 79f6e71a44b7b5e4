import SandboxWire
import Foundation

/// Something that answers requests: a router, a static-file tree, a whole service.
public protocol Responder: Sendable {
    /// Answers `request` on the calling thread (waiting for an answer that comes later).
    func respond(to request: Request) -> Response
    /// Answers `request` through `reply`, exactly once: right away, or later from another thread
    /// (a payment, once its commit is durable). `reply` takes how to make the answer, which the
    /// server runs on the thread that sends it. The server calls this one.
    func respond(to request: Request, reply: @escaping @Sendable (@escaping Answering) -> Void)
}

extension Responder {
    /// Answers on a thread of ``HandlerThreads``: `respond(to:)` may block, and the server's
    /// polling threads must not.
    public func respond(to request: Request, reply: @escaping @Sendable (@escaping Answering) -> Void) {
        HandlerThreads.shared.run {
            let response = respond(to: request)
            reply { response }
        }
    }
}

/// A handler of one route. A thrown ``ServiceError`` becomes its envelope; anything else a bare 500.
public typealias Handler = @Sendable (Request) throws -> Response

/// Makes an answer, once, on the thread that sends it: work that only shapes the answer (encoding
/// a JSON body) is left to the server's polling threads rather than to the thread that replies.
public typealias Answering = @Sendable () -> Response

/// Hands a route's answer (or the error that stands for it) over, exactly once, from any thread:
/// `reply { .success(.json(detail)) }`. The closure runs later, on the thread that sends it.
public typealias Reply = @Sendable (@escaping @Sendable () -> Result<Response, any Error>) -> Void

/// How a route's handler may run, beside the default (on ``HandlerThreads``, where it may block).
public enum RouteOption: Sendable {
    /// The handler answers on the server's polling thread and must not block: no database, no
    /// file, no call to another service, no lock held by code that does any of these. It saves the
    /// two thread hops of a plain route (to ``HandlerThreads`` and back), which are most of the
    /// cost of a small read such as the environment's catalogue entry. While it runs, every other
    /// connection of its polling thread waits.
    case nonBlocking
}

/// A ``RouteOption/nonBlocking`` handler that may find it cannot answer without blocking (a
/// session that is not in memory): `nil` hands the request to the route's blocking ``Handler``,
/// on ``HandlerThreads``.
public typealias NonBlockingHandler = @Sendable (Request) throws -> Response?

/// A handler of one route whose answer comes later, through `reply`, from another thread: it
/// starts the work (a write whose commit is still to be synced) and returns. A thrown error is the
/// answer, as for ``Handler``, and then `reply` must not be called.
public typealias DeferredHandler = @Sendable (Request, _ reply: @escaping Reply) throws -> Void

/// Matches method and path to a handler; answers 404 and 405 (with `Allow`) itself.
///
/// Patterns are literal segments and `{name}` parameters:
///
/// ```swift
/// var router = Router()
/// router.get("/v1/terminals/{id}") { request in
///     .json(["id": request.parameter("id")])
/// }
/// router.post("/v1/payments", deferred: { request, reply in
///     let order = try request.decode(Order.self)          // on the polling thread
///     store.write({ db in try order.save(db) }) { saved in  // told once durable
///         reply { saved.map { .json($0, status: 201) } }    // encoded where it is sent
///     }
/// })
/// ```
///
/// Through a server, a route of the first kind runs on ``HandlerThreads`` (it may block there);
/// a deferred one starts on the polling thread and must not block. A route that never blocks and
/// answers from memory (health, a catalogue, a spec) is declared ``RouteOption/nonBlocking`` and
/// answers on the polling thread, which spares it two thread hops:
///
/// ```swift
/// let catalogue = try JSON.encode(region.view(flavour: .sandbox))    // encoded once
/// router.get("/v1/environment", .nonBlocking) { _ in .json(bytes: catalogue) }
/// router.get("/v1/me", .nonBlocking, { request in                     // on the poller when it can be
///     try sessions.cached(request).map { .json($0) }                  // nil: not in memory
/// }, orElse: { request in .json(try sessions.lookUp(request)) })       // then on a handler thread
/// ```
///
/// `HEAD` is answered by the `GET` route of the same path (the server drops the body).
public struct Router: Responder, RouterMethods {
    public typealias Handler = SandboxHTTP.Handler
    public typealias DeferredHandler = SandboxHTTP.DeferredHandler

    private struct Route: Sendable {
        let method: String
        let segments: [Segment]
        let handler: Action
        /// How many segments are literal: of the routes a path matches, those with most win.
        let literals: Int
    }

    private enum Action: Sendable {
        case now(Handler)
        case later(DeferredHandler)
        /// On the polling thread; `nil` from it falls back to the handler, on a handler thread.
        case inline(NonBlockingHandler, orElse: Handler?)
    }

    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private var routes: [Route] = []
    /// The routes whose segments are all literal, by their path (`/a/b`), in the order added: a
    /// path that names one is resolved by one lookup. Such a route has the most literal segments a
    /// path can match, so the routes at its path are exactly the ones that compete.
    private var literalRoutes: [String: [Int]] = [:]
    /// The other routes, by their number of segments, in the order added.
    private var parameterRoutes: [Int: [Int]] = [:]
    /// Asked when no route matches the path (static files).
    public var fallback: (any Responder)?
    /// Turns the router's own 405 (a path that has routes, none for this method) into the answer;
    /// by default its envelope. A surface with an error body of its own (MONEI's) answers that.
    public var methodNotAllowed: @Sendable (Request, HTTPError) -> Response = { _, error in error.response }
    /// Turns an error that is not an ``HTTPResponseError`` into one the client may hear (a full
    /// disk into 503 `storage_full`), before it would become a 500; nil: it stays a 500.
    public var translateError: @Sendable (any Error) -> (any HTTPResponseError)? = { _ in nil }
    /// Called with every error that is not an ``HTTPResponseError``, before it becomes a 500 with no
    /// detail; by default the error goes to standard error with the request's id.
    public var onUnexpectedError: @Sendable (Request, any Error) -> Void = { request, error in
        FileHandle.standardError.write(Data("[\(request.id)] \(request.method) \(request.path) failed: \(error)\n".utf8))
    }

    public init() {}

    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        add(method, pattern, action: .now(handler))
    }

    /// Adds a route that answers later (see ``DeferredHandler``).
    public mutating func add(_ method: String, _ pattern: String, deferred handler: @escaping DeferredHandler) {
        add(method, pattern, action: .later(handler))
    }

    /// Adds a route whose handler answers on the polling thread and must not block (see
    /// ``RouteOption/nonBlocking``).
    public mutating func add(_ method: String, _ pattern: String, _ option: RouteOption, _ handler: @escaping Handler) {
        switch option {
        case .nonBlocking: add(method, pattern, action: .inline({ try handler($0) }, orElse: nil))
        }
    }

    /// Adds a route answered on the polling thread by `handler` when it can without blocking, and
    /// by `blocking` on a handler thread when it returns `nil` (see ``NonBlockingHandler``).
    public mutating func add(
        _ method: String, _ pattern: String, _ option: RouteOption, _ handler: @escaping NonBlockingHandler,
        orElse blocking: @escaping Handler
    ) {
        switch option {
        case .nonBlocking: add(method, pattern, action: .inline(handler, orElse: blocking))
        }
    }

    private mutating func add(_ method: String, _ pattern: String, action handler: Action) {
        let segments = Self.split(pattern).map { part -> Segment in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        precondition(
            !routes.contains { $0.method == method && $0.segments == segments }, "route \(method) \(pattern) added twice")
        let literals = segments.count { if case .literal = $0 { true } else { false } }
        if literals == segments.count {
            literalRoutes["/" + segments.map { if case .literal(let text) = $0 { text } else { "" } }.joined(separator: "/"), default: []]
                .append(routes.count)
        } else {
            parameterRoutes[segments.count, default: []].append(routes.count)
        }
        routes.append(Route(method: method, segments: segments, handler: handler, literals: literals))
    }

    /// A `GET` answered on the polling thread when `handler` can, else by `blocking` on a handler thread.
    public mutating func get(
        _ pattern: String, _ option: RouteOption, _ handler: @escaping NonBlockingHandler, orElse blocking: @escaping Handler
    ) {
        add("GET", pattern, option, handler, orElse: blocking)
    }

    public func respond(to request: Request) -> Response {
        switch resolve(request) {
        case .answer(let response):
            return response
        case .fallback(let fallback):
            return fallback.respond(to: request)
        case .now(let handler, let request):
            return answer(request, Result { try handler(request) })
        case .inline(let handler, let blocking, let request):
            switch Result(catching: { try handler(request) }) {
            case .success(let response?): return response
            case .success(nil): return answer(request, Result { try (blocking ?? Self.unanswered)(request) })
            case .failure(let error): return answer(request, .failure(error))
            }
        case .later(let handler, let request):
            // The answer comes from another thread: wait for it here.
            final class Waiting: @unchecked Sendable {
                var response: Response?
                let done = DispatchSemaphore(value: 0)
            }
            let waiting = Waiting()
            start(handler, request) { answering in
                waiting.response = answering()
                waiting.done.signal()
            }
            waiting.done.wait()
            return waiting.response!
        }
    }

    /// Routes that answer later start on the calling thread (a server's polling thread: they only
    /// decode, check and hand their write over), non-blocking routes answer on it; the others run on
    /// ``HandlerThreads``.
    public func respond(to request: Request, reply: @escaping @Sendable (@escaping Answering) -> Void) {
        switch resolve(request) {
        case .answer(let response):
            reply { response }
        case .fallback(let fallback):
            fallback.respond(to: request, reply: reply)
        case .now(let handler, let request):
            HandlerThreads.shared.run {
                let response = answer(request, Result { try handler(request) })
                reply { response }
            }
        case .inline(let handler, let blocking, let request):
            switch Result(catching: { try handler(request) }) {
            case .success(let response?):
                reply { response }
            case .success(nil):
                let blocking = blocking ?? Self.unanswered
                HandlerThreads.shared.run {
                    let response = answer(request, Result { try blocking(request) })
                    reply { response }
                }
            case .failure(let error):
                let response = answer(request, .failure(error))
                reply { response }
            }
        case .later(let handler, let request):
            start(handler, request, reply: reply)
        }
    }

    /// What a route declared with a plain non-blocking ``Handler`` never reaches (it cannot return
    /// `nil`); a 500 rather than a trap, should it ever.
    private static let unanswered: Handler = { _ in throw HTTPError.internalError }

    /// What a request comes to: a route's handler (with the request carrying the path's
    /// parameters), the fallback, or an answer of the router's own (404, 405).
    private enum Resolution {
        case now(Handler, Request)
        case later(DeferredHandler, Request)
        case inline(NonBlockingHandler, orElse: Handler?, Request)
        case fallback(any Responder)
        case answer(Response)
    }

    private func resolve(_ request: Request) -> Resolution {
        let method = request.method == "HEAD" ? "GET" : request.method
        // The routes the path matches with the most literal segments: `POST …/transactions/sale`
        // is the resource at `…/transactions/sale`, not a transaction with the id "sale", so a GET
        // there is 405, not a lookup of that id.
        var chosen: (route: Route, parameters: [String: String])?
        var allowed: [String] = []
        var mostLiterals = -1
        let parts: [Substring]
        let candidates: [Int]
        if let literal = literalRoutes[Self.canonical(request.path)] {
            // Only the routes at exactly this path can have as many literal segments.
            parts = []
            candidates = literal
        } else {
            parts = Self.split(request.path)
            candidates = parameterRoutes[parts.count] ?? []
        }
        for index in candidates {
            let route = routes[index]
            guard route.literals >= mostLiterals,
                let parameters = route.literals == route.segments.count ? [:] : Self.match(route.segments, parts)
            else { continue }
            if route.literals > mostLiterals {
                mostLiterals = route.literals
                chosen = nil
                allowed = []
            }
            if route.method == method {
                if chosen == nil { chosen = (route, parameters) }
            } else if !allowed.contains(route.method) {
                allowed.append(route.method)
            }
        }
        if let chosen {
            var request = request
            // Set only when there are some: a change would copy the request's shared fields.
            if !chosen.parameters.isEmpty || !request.parameters.isEmpty { request.parameters = chosen.parameters }
            switch chosen.route.handler {
            case .now(let handler): return .now(handler, request)
            case .later(let handler): return .later(handler, request)
            case .inline(let handler, let blocking): return .inline(handler, orElse: blocking, request)
            }
        }
        if !allowed.isEmpty {
            if allowed.contains("GET") { allowed.append("HEAD") }
            return .answer(methodNotAllowed(request, HTTPError.methodNotAllowed(allowed: allowed)))
        }
        if let fallback { return .fallback(fallback) }
        return .answer(HTTPError.notFound.response)
    }

    private func start(_ handler: DeferredHandler, _ request: Request, reply: @escaping @Sendable (@escaping Answering) -> Void) {
        do {
            try handler(request) { result in reply { answer(request, result()) } }
        } catch {
            let response = answer(request, .failure(error))
            reply { response }
        }
    }

    /// A handler's outcome as the client sees it: a thrown ``HTTPResponseError`` is its envelope,
    /// anything else a bare 500 (reported to `onUnexpectedError`).
    private func answer(_ request: Request, _ result: Result<Response, any Error>) -> Response {
        switch result {
        case .success(let response): return response
        case .failure(let error as any HTTPResponseError): return error.response
        case .failure(let error as any ServiceError): return Response.refusal(error)
        case .failure(let error):
            if let translated = translateError(error) { return translated.response }
            onUnexpectedError(request, error)
            return HTTPError.internalError.response
        }
    }

    /// The path's segments, split at every `/` scalar: not at `/` characters, since a `/` followed
    /// by a combining mark or an emoji modifier is one character with it, and a path such as
    /// `/api/regions/%F0%9F%8F%BB/faults` would otherwise lose a segment and match another route.
    private static func split(_ path: String) -> [Substring] {
        path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: true).map(Substring.init)
    }

    /// The path as `literalRoutes` keys it: `/` and the non-empty segments joined by `/`; most
    /// paths already are, and are returned as they are.
    private static func canonical(_ path: String) -> String {
        var previous: UInt8 = 0
        var plain = path.utf8.first == UInt8(ascii: "/")
        for byte in path.utf8 where plain {
            if byte == UInt8(ascii: "/"), previous == UInt8(ascii: "/") { plain = false }
            previous = byte
        }
        if plain, previous != UInt8(ascii: "/") || path.utf8.count == 1 { return path }
        return "/" + split(path).joined(separator: "/")
    }

    /// The path's parameters when `parts` match `segments`. Literals are compared byte for byte
    /// first, so the routes a path does not match (most of them) cost no allocation.
    private static func match(_ segments: [Segment], _ parts: [Substring]) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        for (segment, part) in zip(segments, parts) {
            if case .literal(let literal) = segment, !literal.utf8.elementsEqual(part.utf8) { return nil }
        }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            if case .parameter(let name) = segment { parameters[name] = String(part) }
        }
        return parameters
    }
}
