import SandboxHTTP

// The "Terminals" page: every merchant of a region with its terminals and their state, and the
// back office's actions on one terminal.
extension PortalSimulator {
    static func addTerminalRoutes(to router: inout Router, hosts: HostLinks) {
        router.get("/api/regions/{region}/merchants") { request in
            let host = try hosts.link(request.parameter("region"))
            return try host.send(.get, "/backoffice/v1/merchants").relayed(region: host.environment.region)
        }
        for action in ["unregister", "unlock"] {
            router.post("/api/regions/{region}/terminals/{terminalId}/\(action)") { request in
                let host = try hosts.link(request.parameter("region"))
                let terminal = try identifier(request.parameter("terminalId"), field: "terminalId")
                return try host.send(.post, "/backoffice/v1/terminals/\(terminal)/\(action)").relayed(region: host.environment.region)
            }
        }
    }
}
