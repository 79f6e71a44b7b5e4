import SandboxWire
import HostRules
import HostStorage
import Foundation
import SandboxCore
import SandboxHTTP

/// The back-office API the portal calls (the region's back-office key): merchants and terminals,
/// challenge confirmation, registration tokens, unlock, unregister, the mailbox. Webhooks:
/// EnvironmentHost+WebhookRoutes.swift.
extension EnvironmentHost {
    static func addBackOfficeRoutes(to router: inout Router, _ lifecycle: Lifecycle, key: String) {
        router.group("/backoffice/v1", middleware: backOfficeKey(key)) { backOffice in
            backOffice.get("/merchants") { _, _ in
                .json(["merchants": try lifecycle.merchants()])
            }
            backOffice.get("/terminals/{terminalId}") { request, _ in
                .json(try lifecycle.terminalState(try Validate.identifier(request.parameter("terminalId"), field: "terminalId")))
            }
            backOffice.get("/challenges/{challengeCode}") { request, _ in
                .json(try lifecycle.waitingRegistration(request.parameter("challengeCode"), from: .init(address: request.clientAddress)))
            }
            backOffice.post("/challenges/confirm") { request, _ in
                let body = try request.decode(Bodies.Confirm.self)
                return .json(
                    try lifecycle.confirmChallenge(
                        body.challengeCode, terminal: try body.terminalId.map { try Validate.identifier($0, field: "terminalId") },
                        merchant: try body.merchantId.map { try Validate.identifier($0, field: "merchantId") },
                        from: .init(address: request.clientAddress)))
            }
            backOffice.post("/registration-tokens") { request, _ in
                let body = try request.decode(Bodies.IssueToken.self)
                return .json(
                    try lifecycle.issueToken(
                        terminal: try Validate.identifier(body.terminalId, field: "terminalId"), merchant: nil,
                        email: try body.email.map { try Validate.email($0) }),
                    status: 201)
            }
            backOffice.delete("/registration-tokens/{token}") { request, _ in
                try lifecycle.revokeToken(try Validate.identifier(request.parameter("token"), field: "token"))
                return Response(status: 204)
            }
            backOffice.post("/registration-tokens/{token}/refresh") { request, _ in
                .json(try lifecycle.refreshToken(try Validate.identifier(request.parameter("token"), field: "token")))
            }
            backOffice.post("/registration-tokens/{token}/email") { request, _ in
                struct Body: Decodable { let email: String }
                let token = try Validate.identifier(request.parameter("token"), field: "token")
                return .json(try lifecycle.emailToken(token, to: try Validate.email(try request.decode(Body.self).email)))
            }
            backOffice.post("/terminals/{terminalId}/unlock") { request, _ in
                try lifecycle.unlock(terminal: try Validate.identifier(request.parameter("terminalId"), field: "terminalId"))
                return Response(status: 204)
            }
            backOffice.post("/terminals/{terminalId}/unregister") { request, _ in
                try lifecycle.unregister(terminal: try Validate.identifier(request.parameter("terminalId"), field: "terminalId"))
                return Response(status: 204)
            }
            backOffice.get("/mailbox") { _, _ in
                .json(["messages": try lifecycle.mailbox()])
            }
        }
    }
}
