import Foundation

/// A started service: what `sandbox up` lists and stops.
public protocol RunningService: AnyObject, Sendable {
    /// Short name for tables and logs (`EU`, `portal`).
    var name: String { get }
    var server: Server { get }
    /// Stops serving; a service with background work (a webhook dispatcher) stops that too.
    func stop()
}

extension RunningService {
    /// The base URL the sandbox's own services call this one at; a wildcard bind address is loopback.
    public var url: String {
        let host = server.configuration.host == "0.0.0.0" ? "127.0.0.1" : server.configuration.host
        return "http://\(host):\(server.port)"
    }

    /// The base URL people and other machines use (the start line, `endpoints.json`): for a wildcard
    /// bind address, this machine's address on its network (``ListenAddress/reachable(_:)``).
    public var reachableURL: String {
        "http://\(ListenAddress.reachable(server.configuration.host)):\(server.port)"
    }

    public func stop() { server.stop() }
}

extension Router {
    /// `GET /openapi.yaml`: the service's API description, read once at start and answered from
    /// memory on the polling thread.
    ///
    /// - Throws: when the file is missing, so a service never starts without its spec.
    public mutating func serveOpenAPI(_ file: URL) throws {
        let body = try [UInt8](Data(contentsOf: file))
        get("/openapi.yaml", .nonBlocking) { _ in Response(status: 200, headers: [("Content-Type", "application/yaml")], body: body) }
    }
}
