import SandboxWire
import HostRules
import HostStorage
import Foundation
import SandboxCore
import SandboxHTTP

/// The merchant API (a merchant's own API key): its terminals, registration tokens and checkouts.
extension EnvironmentHost {
    static func addMerchantRoutes(to router: inout Router, _ lifecycle: Lifecycle, _ payments: CardPayments) {
        router.group("/merchant/v1", middleware: merchantKey(lifecycle)) { merchantAPI in
            merchantAPI.get("/terminals") { _, merchant in
                .json(["terminals": try lifecycle.terminals(merchant: merchant.id)])
            }
            merchantAPI.post("/registration-tokens") { request, merchant in
                let body = try request.decode(Bodies.IssueToken.self)
                return .json(
                    try lifecycle.issueToken(
                        terminal: try Validate.identifier(body.terminalId, field: "terminalId"), merchant: merchant.id,
                        email: try body.email.map { try Validate.email($0) }),
                    status: 201)
            }
            merchantAPI.post("/checkouts") { request, merchant in
                let body = try request.decode(CardPayments.CheckoutRequest.self)
                _ = try Validate.identifier(body.terminalId, field: "terminalId")
                return .json(try payments.createCheckout(merchant: merchant.id, body), status: 201)
            }
        }
    }
}
