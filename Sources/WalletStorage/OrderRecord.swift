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

    /// The table: each column beside the property it holds; reading, writing and the column list come from it.
    package static let table = ColumnTable<OrderRecord>("orders", [
        Column("order_id", \.orderId), Column("region", \.region), Column("merchant_id", \.merchantId),
        Column("merchant_name", \.merchantName), Column("terminal_id", \.terminalId), Column("amount", \.amount),
        Column("currency", \.currency), Column("brand", \.brand), Column("brand_full_name", \.brandFullName),
        Column("reference", \.reference), Column("status", \.status, unknown: .pending), Column("pay_url", \.payUrl),
        Column("created_at", \.createdAt), Column("expires_at", \.expiresAt), Column("payment_id", \.paymentId),
        Column("reason", \.reason), Column("request", \.request),
        // The plan's three columns are read together, with the first: a plan is all three or none.
        Column("plan_action", write: { $0.plan.map { .text($0.action.rawValue) } ?? .null }, read: { order, row in
            let action: String? = try row["plan_action"]
            let due: Int64? = try row["plan_due_at"]
            order.plan = nil
            if let action = action.flatMap(RuleAction.init(rawValue:)), let due {
                order.plan = Plan(action: action, reason: try row["plan_reason"], dueAt: due)
            }
        }),
        Column("plan_reason", write: { $0.plan?.reason.databaseValue ?? .null }, read: { _, _ in }),
        Column("plan_due_at", write: { $0.plan.map { .integer($0.dueAt) } ?? .null }, read: { _, _ in }),
        Column("customer_id", \.customerId), Column("charged", \.charged),
    ])

    /// The column list, for `SELECT`.
    package static var columns: String { table.list }

    package init(row: Row) throws {
        self = try Self.table.record(row, from: OrderRecord())
    }

    /// An empty record, for ``table`` to fill.
    private init() {
        orderId = ""; region = ""; merchantId = ""; merchantName = ""; terminalId = ""; amount = 0; currency = ""; brand = ""
        status = .pending; payUrl = ""; createdAt = 0; expiresAt = 0; request = ""
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

    package var values: [DatabaseValue] { Self.table.values(of: self) }
}

extension Date {
    package init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
