/// Routes under one path prefix that share a ``Middleware``: it runs before each of their
/// handlers and hands them what it found, so a check is written once for the group.
///
/// ```swift
/// router.group("/backoffice/v1", middleware: backOfficeKey) { backOffice in
///     backOffice.get("/merchants") { _, _ in .json(["merchants": try lifecycle.merchants()]) }
/// }
/// router.group("/merchant/v1", middleware: merchantOfKey) { merchantAPI in
///     merchantAPI.get("/terminals") { _, merchant in .json(try lifecycle.terminals(merchant: merchant)) }
/// }
/// ```
///
/// A group's routes are the router's own: they get the router's 404, 405 (with `Allow`) and `HEAD`
/// answers, before and without the middleware, and run on the threads their kind names.
public struct RouterGroup<Context: Sendable>: RouterMethods {
    /// A route's handler, given what the middleware found.
    public typealias Handler = @Sendable (Request, Context) throws -> Response
    /// A deferred route's handler (see ``SandboxHTTP/DeferredHandler``), given what the middleware found.
    public typealias DeferredHandler = @Sendable (Request, Context, _ reply: @escaping Reply) throws -> Void

    /// The path every pattern of the group is under (`/backoffice/v1`).
    public let prefix: String
    let middleware: Middleware<Context>
    var router: Router

    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        let middleware = middleware
        router.add(method, prefix + pattern) { request in
            let context = try middleware.find(request)
            return Self.noting(context, in: try handler(request, context))
        }
    }

    /// The answer with the request journal's subject, when the context names one.
    static func noting(_ context: Context, in response: Response) -> Response {
        guard let subject = (context as? any JournalSubject)?.journalSubject else { return response }
        var noted = response
        noted.journalSubject = subject
        return noted
    }

    /// Adds a route that answers later; the middleware runs first, on the polling thread.
    public mutating func add(_ method: String, _ pattern: String, deferred handler: @escaping DeferredHandler) {
        let middleware = middleware
        router.add(method, prefix + pattern, deferred: { request, reply in
            let context = try middleware.find(request)
            guard context is any JournalSubject else { return try handler(request, context, reply) }
            try handler(request, context) { answer in reply { answer().map { Self.noting(context, in: $0) } } }
        })
    }

    /// Adds a route answered on the polling thread when the middleware finds its context there
    /// without blocking; otherwise the middleware and `handler` run on a handler thread. `handler`
    /// must not block.
    public mutating func add(_ method: String, _ pattern: String, _ option: RouteOption, _ handler: @escaping Handler) {
        let middleware = middleware
        router.add(method, prefix + pattern, option, { request in
            try middleware.findWithoutBlocking(request).map { Self.noting($0, in: try handler(request, $0)) }
        }, orElse: { request in
            let context = try middleware.find(request)
            return Self.noting(context, in: try handler(request, context))
        })
    }
}

extension Router {
    /// Adds the routes `routes` declares, each under `prefix` and behind `middleware`.
    ///
    /// - Parameters:
    ///   - prefix: The path the group's patterns are under (`/backoffice/v1`); a pattern of `""` is the prefix itself.
    ///   - middleware: Runs before every handler of the group; what it throws is the answer.
    ///   - routes: Declares the routes on the group it is given.
    public mutating func group<Context>(
        _ prefix: String, middleware: Middleware<Context>, _ routes: (inout RouterGroup<Context>) -> Void
    ) {
        var group = RouterGroup(prefix: prefix, middleware: middleware, router: self)
        routes(&group)
        self = group.router
    }
}

/// A group's context that names what a request acted for (a terminal), shown as the request
/// journal's `subject`.
public protocol JournalSubject {
    var journalSubject: String { get }
}
