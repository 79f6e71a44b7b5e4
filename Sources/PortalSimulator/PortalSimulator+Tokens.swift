import SandboxHTTP

// Registration tokens (the backend-to-backend activation): created for a free terminal from the
// Terminals page, shown as text and QR code, refreshed, e-mailed; and the mailbox they go to.
extension PortalSimulator {
    struct TokenBody: Decodable {
        let terminalId: String
        let email: String?
    }

    struct EmailBody: Decodable {
        let email: String
    }

    static func addTokenRoutes(to router: inout Router, hosts: HostLinks) {
        router.post("/api/regions/{region}/registration-tokens") { request in
            let host = try hosts.link(request.parameter("region"))
            let body = try request.decode(TokenBody.self)
            var forward = ["terminalId": try identifier(body.terminalId, field: "terminalId")]
            // The host checks the address and answers for it.
            if let email = body.email { forward["email"] = email }
            return try host.send(.post, "/backoffice/v1/registration-tokens", body: try JSON.encode(forward))
                .relayed(region: host.environment.region)
        }
        router.post("/api/regions/{region}/registration-tokens/{token}/refresh") { request in
            let host = try hosts.link(request.parameter("region"))
            let token = try identifier(request.parameter("token"), field: "token")
            return try host.send(.post, "/backoffice/v1/registration-tokens/\(token)/refresh").relayed(region: host.environment.region)
        }
        router.post("/api/regions/{region}/registration-tokens/{token}/email") { request in
            let host = try hosts.link(request.parameter("region"))
            let token = try identifier(request.parameter("token"), field: "token")
            let email = try request.decode(EmailBody.self).email
            return try host.send(.post, "/backoffice/v1/registration-tokens/\(token)/email", body: try JSON.encode(["email": email]))
                .relayed(region: host.environment.region)
        }
        router.get("/api/regions/{region}/mailbox") { request in
            let host = try hosts.link(request.parameter("region"))
            return try host.send(.get, "/backoffice/v1/mailbox").relayed(region: host.environment.region)
        }
    }
}
