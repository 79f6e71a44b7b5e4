import HostRules
import HostStorage
import SandboxHTTP
import SandboxWire

/// QR wallet and BLIK payments on the terminal API (docs/qr-payments.md, "Host API"; docs/blik.md):
/// make the order, poll it, cancel it, refund it. A device's session, as for card payments.
extension EnvironmentHost {
    static func addAPMRoutes(to router: inout Router, _ apm: APMPayments, courier: WalletCourier) {
        @Sendable func id(_ request: Request) throws -> String {
            try Validate.identifier(request.parameter("transactionId"), field: "transactionId")
        }
        router.group("/terminal/v1/apm", middleware: sessionBearer(apm.payments.lifecycle)) { routes in
            // Blocking routes: the order is made at the wallet while the device waits for its QR.
            routes.post("/qr/payments") { request, session in
                try apm.create(session, try request.decode(APMBodies.Payment.self), key: try idempotencyKey(request)).response
            }
            // The wallet checks the code while the device waits: a refusal is answered at once.
            routes.post("/blik/payments") { request, session in
                try apm.createBlik(
                    session, try request.decode(APMBodies.BlikPayment.self), key: try idempotencyKey(request), address: request.clientAddress
                ).response
            }
            routes.get("/transactions/{transactionId}") { request, session in
                .json(try apm.transaction(session, id: try id(request)))
            }
            routes.post("/transactions/{transactionId}/cancel") { request, session in
                // An empty body is a cancel without a reason.
                let body = request.body.isEmpty ? APMBodies.Cancel() : try request.decode(APMBodies.Cancel.self)
                let cancelled = try apm.cancel(session, id: try id(request), reason: body.reason)
                courier.wake()
                return .json(cancelled)
            }
            routes.post("/qr/refunds") { request, session in
                let body = try request.decode(APMBodies.Refund.self)
                _ = try Validate.identifier(body.refundedTransactionId, field: "refundedTransactionId")
                let answer = try apm.refund(session, body, key: try idempotencyKey(request))
                courier.wake()
                return answer.response
            }
            routes.post("/blik/refunds") { request, session in
                let body = try request.decode(APMBodies.Refund.self)
                _ = try Validate.identifier(body.refundedTransactionId, field: "refundedTransactionId")
                let answer = try apm.refund(session, body, key: try idempotencyKey(request), method: .BLIK)
                courier.wake()
                return answer.response
            }
        }
    }
}
