import Foundation

/// Something that answers requests: a router, a static-file tree, a whole service.
public protocol Responder: Sendable {
    func respond(to request: Request) -> Response
}

/// A handler of one route. A thrown `HTTPError` becomes its envelope; anything else a bare 500.
public typealias Handler = @Sendable (Request) throws -> Response

/// Matches method and path to a handler; answers 404 and 405 (with `Allow`) itself.
///
/// Patterns are literal segments and `{name}` parameters:
///
/// ```swift
/// var router = Router()
/// router.get("/v1/terminals/{id}") { request in
///     .json(["id": request.parameter("id")])
/// }
/// ```
///
/// `HEAD` is answered by the `GET` route of the same path (the server drops the body).
public struct Router: Responder {
    private struct Route: Sendable {
        let method: String
        let segments: [Segment]
        let handler: Handler
        /// How many segments are literal: of the routes a path matches, those with most win.
        let literals: Int
    }

    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private var routes: [Route] = []
    /// Asked when no route matches the path (static files).
    public var fallback: (any Responder)?
    /// Called with every error that is not an `HTTPError`, before it becomes a 500 with no
    /// detail; by default the error goes to standard error with the request's id.
    public var onUnexpectedError: @Sendable (Request, any Error) -> Void = { request, error in
        FileHandle.standardError.write(Data("[\(request.id)] \(request.method) \(request.path) failed: \(error)\n".utf8))
    }

    public init() {}

    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        let segments = Self.split(pattern).map { part -> Segment in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        precondition(
            !routes.contains { $0.method == method && $0.segments == segments }, "route \(method) \(pattern) added twice")
        let literals = segments.count { if case .literal = $0 { true } else { false } }
        routes.append(Route(method: method, segments: segments, handler: handler, literals: literals))
    }

    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { add("GET", pattern, handler) }
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) { add("POST", pattern, handler) }
    public mutating func put(_ pattern: String, _ handler: @escaping Handler) { add("PUT", pattern, handler) }
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) { add("DELETE", pattern, handler) }

    public func respond(to request: Request) -> Response {
        let parts = Self.split(request.path)
        let method = request.method == "HEAD" ? "GET" : request.method
        // The routes the path matches with the most literal segments: `POST …/transactions/sale`
        // is the resource at `…/transactions/sale`, not a transaction with the id "sale", so a GET
        // there is 405, not a lookup of that id.
        var chosen: (route: Route, parameters: [String: String])?
        var allowed: [String] = []
        var mostLiterals = -1
        for route in routes {
            guard route.literals >= mostLiterals, let parameters = Self.match(route.segments, parts) else { continue }
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
            request.parameters = chosen.parameters
            do {
                return try chosen.route.handler(request)
            } catch let error as HTTPError {
                return error.response
            } catch {
                onUnexpectedError(request, error)
                return HTTPError.internalError.response
            }
        }
        if !allowed.isEmpty {
            if allowed.contains("GET") { allowed.append("HEAD") }
            return HTTPError.methodNotAllowed(allowed: allowed).response
        }
        return fallback?.respond(to: request) ?? HTTPError.notFound.response
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    private static func match(_ segments: [Segment], _ parts: [Substring]) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal):
                guard literal == part else { return nil }
            case .parameter(let name):
                parameters[name] = String(part)
            }
        }
        return parameters
    }
}
