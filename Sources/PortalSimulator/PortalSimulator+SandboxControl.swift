import SandboxHTTP

// The "Sandbox" page: each host's clock (read, advance, set) and its reset.
extension PortalSimulator {
    struct ClockBody: Codable {
        let advanceSeconds: Double?
        let set: String?
    }

    static func addSandboxControlRoutes(to router: inout Router, hosts: HostLinks) {
        router.get("/api/regions/{region}/clock") { request in
            let host = try hosts.link(request.parameter("region"))
            return try host.send(.get, "/_sandbox/clock").relayed(region: host.environment.region)
        }
        router.post("/api/regions/{region}/clock") { request in
            let host = try hosts.link(request.parameter("region"))
            // Decoded and written again: only the two fields the host knows reach it.
            let body = try request.decode(ClockBody.self)
            return try host.send(.post, "/_sandbox/clock", body: try JSON.encode(body)).relayed(region: host.environment.region)
        }
        router.post("/api/regions/{region}/reset") { request in
            let host = try hosts.link(request.parameter("region"))
            return try host.send(.post, "/_sandbox/reset").relayed(region: host.environment.region)
        }
    }
}
