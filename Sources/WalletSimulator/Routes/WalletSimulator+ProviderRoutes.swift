import WalletRules
import WalletStorage
import Foundation
import SandboxHTTP
import SandboxWire

/// The provider API the hosts call (docs/qr-payments.md, "Host and wallet"): every request
/// signed with its region's secret, every order bound to the region that made it.
extension WalletSimulator {
    static func addProviderRoutes(to router: inout Router, book: OrderBook, realTime: @escaping @Sendable () -> Int) {
        let secrets = book.data.secrets
        let signed = Middleware<String> { request in try ProviderSignature.verify(header: { request.header($0) }, body: request.body, secrets: secrets, now: realTime()) }
        router.group("/provider/v1", middleware: signed) { group in
            // Deferred: checked on the polling thread, answered once the order is durable.
            group.post("/orders", deferred: { request, region, reply in
                let body = try request.decode(WalletProvider.OrderRequest.self)
                try Validate.order(body, region: region)
                try book.create(body) { made in
                    reply { made.map { order, created in .json(order.order, status: created ? 201 : 200) } }
                }
            })
            group.post("/blik/payments", deferred: { request, region, reply in
                let body = try request.decode(WalletBlik.PaymentRequest.self)
                try Validate.blikPayment(body, region: region)
                // No one to wake: a new BLIK order has no notification yet, and a rule's plan for it
                // is carried out by the wallet's scheduler.
                try book.blikPayment(body) { made in
                    reply { made.map { order, created in .json(order.order, status: created ? 201 : 200) } }
                }
            })
            group.get("/orders/{orderId}") { request, region in
                .json(try book.order(try Validate.identifier(request.parameter("orderId"), field: "orderId"), region: region).order)
            }
            group.post("/orders/{orderId}/close") { request, region in
                let orderId = try Validate.identifier(request.parameter("orderId"), field: "orderId")
                let body = try request.decode(WalletProvider.CloseRequest.self)
                guard ["cancelled", "expired"].contains(body.reason) else {
                    throw WalletError.invalid("reason must be cancelled or expired.", field: "reason")
                }
                return .json(try book.close(orderId, region: region, reason: body.reason).order)
            }
            group.post("/refunds") { request, region in
                let body = try request.decode(WalletProvider.RefundRequest.self)
                _ = try Validate.identifier(body.refundId, field: "refundId")
                _ = try Validate.identifier(body.orderId, field: "orderId")
                try Validate.amount(body.amount)
                if let reference = body.reference { _ = try Validate.text(reference, field: "reference", limit: 100) }
                let refund = try book.refund(body, region: region)
                book.outboxChanged.broadcast()
                return .json(RefundView(refund), status: 202)
            }
            group.get("/refunds/{refundId}") { request, region in
                .json(RefundView(try book.refundRecord(try Validate.identifier(request.parameter("refundId"), field: "refundId"), region: region)))
            }
        }
    }
}
