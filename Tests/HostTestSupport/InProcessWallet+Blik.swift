import Foundation
import SandboxTestSupport

/// BLIK at the wallet (docs/blik.md): the bank app's calls, and the payment as the mBank host asks for it.
extension InProcessWallet {
    /// "Generate code" in the bank app of `customer`.
    @discardableResult
    public func blikCode(customer: String = "jan", nine: Bool = false) -> HTTPReply {
        service.call("POST", "/api/blik/codes", body: ["customerId": customer, "nine": nine])
    }

    /// The customer's balance now, minor units (nil when the bank has no such customer).
    public func balance(_ customer: String) -> Int? {
        service.call("GET", "/api/blik/customers/\(customer)").int("balance")
    }

    /// The customer's confirmation requests that wait for an answer.
    public func confirmationRequests(_ customer: String) -> [[String: Any]] {
        service.call("GET", "/api/blik/customers/\(customer)/requests").objects("orders")
    }

    /// `POST /provider/v1/blik/payments` as the mBank host sends it; `change` edits the request first.
    @discardableResult
    public func blikPay(
        _ id: String = "tx-" + String(UInt32.random(in: 1...UInt32.max)), code: String, verification: String? = nil,
        amount: Int = 1250, terminal: String = "MBANK-T0101", expiresIn: Int = 120, change: (inout [String: Any]) -> Void = { _ in }
    ) -> HTTPReply {
        var body: [String: Any] = [
            "paymentId": id, "region": "MBANK", "merchantId": "MBANK-M01", "merchantName": "Kawiarnia Wisła", "terminalId": terminal,
            "amount": amount, "currency": "PLN", "payCode": code, "reference": "INV-1", "expiresInSeconds": expiresIn,
        ]
        if let verification { body["verificationCode"] = verification }
        change(&body)
        return provider("POST", "/provider/v1/blik/payments", body, region: "MBANK")
    }
}
