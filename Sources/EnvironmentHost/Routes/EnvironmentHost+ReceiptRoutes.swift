import HostRules
import HostStorage
import SandboxHTTP

/// The public receipt pages a receipt's QR code or e-mail links to (no credential: the id is the
/// secret, as in a real receipt link).
extension EnvironmentHost {
    static func addReceiptRoutes(to router: inout Router, _ payments: CardPayments) {
        router.get("/receipts/{receiptId}") { request in
            let receipt = request.parameter("receiptId")
            guard receipt.count == 32, receipt.allSatisfy(\.isHexDigit) else {
                throw HTTPError(status: 404, code: .receiptNotFound, message: "No such receipt.")
            }
            return .text(try payments.receiptPage(receipt), contentType: "text/html; charset=utf-8")
        }
    }
}
