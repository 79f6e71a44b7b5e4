import SandboxWire
import WalletRules
import WalletStorage
import Foundation
import SandboxHTTP

/// The customer's pages: `/pay/{orderId}` (what the QR opens), `/bank` (the BLIK bank app) and,
/// from `web/wallet`, `/` (every open order with its QR).
extension WalletSimulator {
    static func addPageRoutes(to router: inout Router, book: OrderBook, webRoot: URL) {
        let payPage = webRoot.appendingPathComponent("pay.html")
        let bankPage = webRoot.appendingPathComponent("bank.html")
        router.get("/bank") { _ in
            guard let page = try? [UInt8](Data(contentsOf: bankPage)) else { throw HTTPError.notFound }
            return Response(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")], body: page)
        }
        router.get("/pay/{orderId}") { request in
            // Opening the QR's URL is the scan, with or without the page's script (a phone, curl).
            if request.method == "GET", let orderId = try? Validate.identifier(request.parameter("orderId"), field: "orderId") {
                book.scanIfPending(orderId)
            }
            guard let page = try? [UInt8](Data(contentsOf: payPage)) else { throw HTTPError.notFound }
            return Response(
                status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")], body: page)
        }
    }
}
