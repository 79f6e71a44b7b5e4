import WalletRules
import WalletStorage
import Foundation
import SandboxHTTP
import SandboxWire

/// The bank app's API (`openapi/wallet.yaml`, docs/blik.md): the customers and their balances,
/// "Generate code", and the confirmation requests a customer answers with the order actions
/// `POST /api/orders/{orderId}/pay` and `/decline`. Open on loopback, like the customer API.
extension WalletSimulator {
    static func addBlikRoutes(to router: inout Router, book: OrderBook) {
        @Sendable func customerId(_ request: Request) throws -> String {
            try Validate.identifier(request.parameter("customerId"), field: "customerId")
        }
        router.get("/api/blik/customers") { _ in .json(["customers": try book.customers()]) }
        router.get("/api/blik/customers/{customerId}") { request in .json(try book.customer(try customerId(request))) }
        router.get("/api/blik/customers/{customerId}/requests") { request in
            .json(["orders": try book.confirmationRequests(customerId: try customerId(request)).map(\.order)])
        }
        // Deferred: checked on the polling thread, answered once the code is durable.
        router.post("/api/blik/codes", deferred: { request, reply in
            let body = try request.decode(WalletBlik.CodeRequest.self)
            let id = try Validate.identifier(body.customerId, field: "customerId")
            book.issueCode(customerId: id, nine: body.nine ?? false) { issued in
                reply { issued.map { .json($0, status: 201) } }
            }
        })
    }
}
