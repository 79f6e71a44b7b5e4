/// What ``Router`` and ``RouterGroup`` share: `get`, `post`, `put` and `delete` over their own
/// `add`, each with the handler type it takes (Hummingbird's `RouterMethods`).
public protocol RouterMethods {
    /// The handler of a route that answers on the calling thread.
    associatedtype Handler
    /// The handler of a route that answers later, through its reply.
    associatedtype DeferredHandler

    mutating func add(_ method: String, _ pattern: String, _ handler: Handler)
    /// Adds a route that answers later (see ``SandboxHTTP/DeferredHandler``).
    mutating func add(_ method: String, _ pattern: String, deferred handler: DeferredHandler)
    /// Adds a route answered on the polling thread (see ``RouteOption/nonBlocking``).
    mutating func add(_ method: String, _ pattern: String, _ option: RouteOption, _ handler: Handler)
}

extension RouterMethods {
    public mutating func get(_ pattern: String, _ handler: Handler) { add("GET", pattern, handler) }
    public mutating func post(_ pattern: String, _ handler: Handler) { add("POST", pattern, handler) }
    public mutating func put(_ pattern: String, _ handler: Handler) { add("PUT", pattern, handler) }
    public mutating func delete(_ pattern: String, _ handler: Handler) { add("DELETE", pattern, handler) }
    public mutating func post(_ pattern: String, deferred handler: DeferredHandler) { add("POST", pattern, deferred: handler) }
    /// A `GET` answered on the polling thread: `handler` must not block (see ``RouteOption/nonBlocking``).
    public mutating func get(_ pattern: String, _ option: RouteOption, _ handler: Handler) { add("GET", pattern, option, handler) }
}
