import Foundation
import SandboxStore
import SandboxWire

/// One row of `orders`: the wire ``WalletProvider/Order`` plus what only the wallet keeps (the
/// request it was made from, for idempotency, and the action a rule planned).
package struct OrderRecord: Sendable, Equatable {
    package var orderId: String
    package var region: String
    package var merchantId: String
    package var merchantName: String
    package var terminalId: String
    package var amount: Int
    package var currency: String
    package var brand: String
    package var brandFullName: String?
    package var reference: String?
    package var status: WalletProvider.OrderStatus
    package var payUrl: String
    package var createdAt: Int64
    package var expiresAt: Int64
    /// Chosen when the customer pays; shown once the host acknowledged.
    package var paymentId: String?
    package var reason: String?
    /// The canonical JSON of the ``WalletProvider/OrderRequest``.
    package var request: String
    package var plan: Plan?
    /// BLIK: the customer whose code made the order (nil for the code table's codes and QR orders).
    package var customerId: String?
    /// BLIK: whether the customer's balance was charged for it (on Approve; given back if the host refuses).
    package var charged = false

    /// What a rule decided to do with the order, and when (wallet clock).
    package struct Plan: Sendable, Equatable {
        package var action: RuleAction
        package var reason: String?
        package var dueAt: Int64

        package init(action: RuleAction, reason: String?, dueAt: Int64) {
            self.action = action
            self.reason = reason
            self.dueAt = dueAt
        }
    }

    package var isPayable: Bool { status == .pending || status == .scanned }

    /// A BLIK payment: no QR, the customer answers a confirmation request in the bank app.
    package var isBlik: Bool { brand == APMPaymentData.APMBrand.BLIK.rawValue }

    package var order: WalletProvider.Order {
        WalletProvider.Order(
            orderId: orderId, region: region, merchantId: merchantId, merchantName: merchantName, terminalId: terminalId,
            amount: amount, currency: currency, brand: brand, brandFullName: brandFullName, reference: reference, status: status,
            payUrl: payUrl, createdAt: Date(milliseconds: createdAt), expiresAt: Date(milliseconds: expiresAt),
            paymentId: status == .paid ? paymentId : nil, reason: reason)
    }

    package static let columns = """
        order_id, region, merchant_id, merchant_name, terminal_id, amount, currency, brand, brand_full_name, reference,
        status, pay_url, created_at, expires_at, payment_id, reason, request, plan_action, plan_reason, plan_due_at,
        customer_id, charged
        """

    package init(row: Row) throws {
        orderId = try row["order_id"]
        region = try row["region"]
        merchantId = try row["merchant_id"]
        merchantName = try row["merchant_name"]
        terminalId = try row["terminal_id"]
        amount = try row["amount"]
        currency = try row["currency"]
        brand = try row["brand"]
        brandFullName = try row["brand_full_name"]
        reference = try row["reference"]
        status = WalletProvider.OrderStatus(rawValue: try row["status"]) ?? .pending
        payUrl = try row["pay_url"]
        createdAt = try row["created_at"]
        expiresAt = try row["expires_at"]
        paymentId = try row["payment_id"]
        reason = try row["reason"]
        request = try row["request"]
        let action: String? = try row["plan_action"]
        let due: Int64? = try row["plan_due_at"]
        if let action = action.flatMap(RuleAction.init(rawValue:)), let due {
            plan = Plan(action: action, reason: try row["plan_reason"], dueAt: due)
        }
        customerId = try row["customer_id"]
        charged = (try row["charged"] as Int64) != 0
    }

    package init(
        request body: WalletProvider.OrderRequest, canonical: String, payUrl: String, createdAt: Int64, plan: Plan?
    ) {
        orderId = body.orderId
        region = body.region
        merchantId = body.merchantId
        merchantName = body.merchantName
        terminalId = body.terminalId
        amount = body.amount
        currency = body.currency
        brand = body.brand
        brandFullName = body.brandFullName
        reference = body.reference
        status = .pending
        self.payUrl = payUrl
        self.createdAt = createdAt
        expiresAt = createdAt + Int64(body.expiresInSeconds) * 1000
        request = canonical
        self.plan = plan
    }

    package var values: [DatabaseValue] {
        [
            .text(orderId), .text(region), .text(merchantId), .text(merchantName), .text(terminalId), .integer(Int64(amount)),
            .text(currency), .text(brand), brandFullName.databaseValue, reference.databaseValue, .text(status.rawValue),
            .text(payUrl), .integer(createdAt), .integer(expiresAt), paymentId.databaseValue, reason.databaseValue, .text(request),
            plan.map { .text($0.action.rawValue) } ?? .null, plan?.reason.databaseValue ?? .null,
            plan.map { .integer($0.dueAt) } ?? .null, customerId.databaseValue, .integer(charged ? 1 : 0),
        ]
    }
}

extension Date {
    package init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
