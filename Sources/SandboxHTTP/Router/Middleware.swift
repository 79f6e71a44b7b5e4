/// What runs before every route of a ``RouterGroup``: a check that refuses a request by throwing
/// (its envelope is the answer, the handler never runs), or hands the handler what it found
/// (the caller's merchant, their session).
///
/// The check runs where the route runs: on a handler thread for a plain route, on the polling
/// thread for a deferred or ``RouteOption/nonBlocking`` one. A check that may have to block (a
/// database read) says how far it gets without blocking, so non-blocking routes stay on the poller
/// when they can:
///
/// ```swift
/// let key = Middleware<Void> { request in
///     guard request.header("authorization") == "Bearer secret" else { throw HTTPError(status: 401, code: .unauthorized, message: "Wrong key.") }
/// }
/// let session = Middleware<Session>(nonBlocking: { request in try sessions.cached(request) },  // nil: not in memory
///                                   orElse: { request in try sessions.lookUp(request) })        // may read the database
/// ```
public struct Middleware<Context: Sendable>: Sendable {
    /// Finds the context, blocking if it must.
    let find: @Sendable (Request) throws -> Context
    /// Finds the context without blocking; `nil` when it cannot.
    let findWithoutBlocking: @Sendable (Request) throws -> Context?

    /// A check that runs the same on any thread; before a non-blocking route it runs on the
    /// polling thread, so there it must not block.
    public init(_ check: @escaping @Sendable (Request) throws -> Context) {
        find = check
        findWithoutBlocking = { try check($0) }
    }

    /// A check that answers from memory when it can (`nonBlocking`, which returns `nil` when it
    /// cannot) and otherwise by `blocking`, on a handler thread before a non-blocking route.
    public init(
        nonBlocking: @escaping @Sendable (Request) throws -> Context?, orElse blocking: @escaping @Sendable (Request) throws -> Context
    ) {
        find = blocking
        findWithoutBlocking = nonBlocking
    }
}
