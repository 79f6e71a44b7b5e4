import SandboxHTTP
import SandboxWire

/// QR wallet and BLIK payments on the terminal API (docs/qr-payments.md, "Host API"; docs/blik.md):
/// make the order, poll it, cancel it, refund it. A device's session, as for card payments.
extension EnvironmentHost {
    static func addAPMRoutes(to router: inout Router, _ qr: QRPayments, courier: WalletCourier) {
        @Sendable func id(_ request: Request) throws -> String {
            try Validate.identifier(request.parameter("transactionId"), field: "transactionId")
        }
        router.group("/terminal/v1/apm", middleware: sessionBearer(qr.payments.lifecycle)) { apm in
            // Blocking routes: the order is made at the wallet while the device waits for its QR.
            apm.post("/qr/payments") { request, session in
                try qr.create(session, try request.decode(APMBodies.Payment.self), key: try idempotencyKey(request))
            }
            // The wallet checks the code while the device waits: a refusal is answered at once.
            apm.post("/blik/payments") { request, session in
                try qr.createBlik(
                    session, try request.decode(APMBodies.BlikPayment.self), key: try idempotencyKey(request), address: request.clientAddress)
            }
            apm.get("/transactions/{transactionId}") { request, session in
                .json(try qr.transaction(session, id: try id(request)))
            }
            apm.post("/transactions/{transactionId}/cancel") { request, session in
                // An empty body is a cancel without a reason.
                let body = request.body.isEmpty ? APMBodies.Cancel() : try request.decode(APMBodies.Cancel.self)
                let cancelled = try qr.cancel(session, id: try id(request), reason: body.reason)
                courier.wake()
                return .json(cancelled)
            }
            apm.post("/qr/refunds") { request, session in
                let body = try request.decode(APMBodies.Refund.self)
                _ = try Validate.identifier(body.refundedTransactionId, field: "refundedTransactionId")
                let answer = try qr.refund(session, body, key: try idempotencyKey(request))
                courier.wake()
                return answer
            }
            apm.post("/blik/refunds") { request, session in
                let body = try request.decode(APMBodies.Refund.self)
                _ = try Validate.identifier(body.refundedTransactionId, field: "refundedTransactionId")
                let answer = try qr.refund(session, body, key: try idempotencyKey(request), method: .BLIK)
                courier.wake()
                return answer
            }
        }
    }
}
