import WalletStorage
import FastJSON
import Foundation
import SandboxCore
import SandboxStore
import SandboxWire

/// BLIK (docs/blik.md): the bank app's codes, the payment a host makes with one, the customer's
/// confirmation and the balance it moves. A BLIK payment is an order with brand `BLIK`, so the
/// notifications, deadlines, closes and refunds are the QR ones.
extension OrderBook {
    package var blik: WalletData.Blik { data.blik }

    // MARK: The bank app (customers)

    package func customers() throws -> [WalletBlik.Customer] { try store.read { db in try db.blik.customers() } }

    /// - Throws: ``WalletError/customerNotFound``.
    package func customer(_ customerId: String) throws -> WalletBlik.Customer {
        guard let customer = try store.read({ db in try db.blik.customer(customerId) }) else { throw WalletError.customerNotFound }
        return customer
    }

    /// "Generate code": a fresh code for the customer, valid `codeLifetimeSeconds` on the wallet's
    /// clock, never one of the code table's (so it cannot be mistaken for a CI code). `completion`
    /// hears the code once it is durable (on the store's thread), or
    /// ``WalletError/customerNotFound``.
    package func issueCode(customerId: String, nine: Bool, then completion: @escaping @Sendable (Result<WalletBlik.Code, any Error>) -> Void) {
        let (now, blik, codes) = (now, blik, codes)
        let seconds = blik.codeLifetimeSeconds
        store.write({ db -> BlikRepository.CodeRow in
            guard try db.blik.customer(customerId) != nil else { throw WalletError.customerNotFound }
            for _ in 0..<100 {
                let code = codes.digits(nine ? 9 : 6)
                guard code.first != "0", blik.rule(for: code) == nil else { continue }
                if let old = try db.blik.code(code) {
                    // A number is given again only long after its last use could matter.
                    guard old.expiresAt + 86_400_000 < now else { continue }
                    try db.blik.forget(code)
                }
                let row = BlikRepository.CodeRow(
                    code: code, verificationCode: nine ? codes.digits(4) : nil, customerId: customerId, createdAt: now,
                    expiresAt: now + Int64(seconds) * 1000, orderId: nil)
                try db.blik.insert(row)
                return row
            }
            throw WalletError(503, .internalError, "The bank found no free code number: try again.")
        }) { written in
            completion(
                written.map { row in
                    WalletBlik.Code(
                        code: row.code, verificationCode: row.verificationCode, customerId: customerId,
                        expiresAt: Date(milliseconds: row.expiresAt), expiresInSeconds: seconds)
                })
        }
    }

    /// The customer's confirmation requests that wait for an answer, oldest first.
    package func confirmationRequests(customerId: String) throws -> [OrderRecord] {
        let now = now
        return try store.read { db in
            guard try db.blik.customer(customerId) != nil else { throw WalletError.customerNotFound }
            return try db.orders.waiting(customerId: customerId, at: now)
        }
    }

    // MARK: The provider side (hosts)

    /// Checks and spends the code, and makes the order: one write transaction, so the same code
    /// sent by two terminals at once pays once. The same request again answers the same order.
    ///
    /// `completion` hears, once it is durable (on the store's thread), the order and whether it is
    /// new, or the code's refusal (``WalletError/blikCodeUnknown``, ``WalletError/blikCodeExpired``,
    /// ``WalletError/blikCodeUsed``, ``WalletError/blikVerificationFailed``), or
    /// ``WalletError/orderReused`` for another payment with the same id.
    package func blikPayment(
        _ request: WalletBlik.PaymentRequest, then completion: @escaping @Sendable (Result<(OrderRecord, created: Bool), any Error>) -> Void
    ) throws {
        let canonical = String(decoding: try SortedJSONEncoder.encode(request), as: UTF8.self)
        let now = now
        let payUrl = publicURL() + "/bank"
        let confirmation = min(blik.confirmationSeconds, request.expiresInSeconds)
        store.write({ [self] db in
            if let existing = try db.orders.find(request.paymentId) {
                guard existing.request == canonical else { throw WalletError.orderReused }
                return (existing, false)
            }
            var expiresIn = confirmation
            var plan: OrderRecord.Plan?
            var customerId: String?
            if let code = try db.blik.code(request.payCode) {
                guard code.orderId == nil else { throw WalletError.blikCodeUsed }
                guard now < code.expiresAt else { throw WalletError.blikCodeExpired }
                guard code.verificationCode == request.verificationCode else { throw WalletError.blikVerificationFailed }
                try db.blik.spend(code.code, orderId: request.paymentId)
                customerId = code.customerId
                plan = try standingRulePlan(db, region: request.region, merchantId: request.merchantId, terminalId: request.terminalId, now: now)
            } else if let rule = blik.rule(for: request.payCode) {
                if let error = rule.error { throw WalletError.blikRefusal(error) }
                if let expected = rule.verificationCode, expected != request.verificationCode { throw WalletError.blikVerificationFailed }
                let due = now + Self.milliseconds(rule.afterSeconds ?? 0)
                switch rule.outcome {
                case .approve: plan = OrderRecord.Plan(action: .approve, reason: nil, dueAt: due)
                case .decline: plan = OrderRecord.Plan(action: .decline, reason: rule.reason?.rawValue, dueAt: due)
                case .noAnswer, nil: expiresIn = request.expiresInSeconds
                }
            } else {
                throw WalletError.blikCodeUnknown
            }
            let orderRequest = WalletProvider.OrderRequest(
                orderId: request.paymentId, region: request.region, merchantId: request.merchantId, merchantName: request.merchantName,
                terminalId: request.terminalId, amount: request.amount, currency: request.currency,
                brand: APMPaymentData.APMBrand.BLIK.rawValue, brandFullName: "BLIK", reference: request.reference,
                expiresInSeconds: expiresIn)
            var order = OrderRecord(request: orderRequest, canonical: canonical, payUrl: payUrl, createdAt: now, plan: plan)
            order.customerId = customerId
            try db.orders.insert(order)
            return (order, true)
        }, then: completion)
    }

    // MARK: Transitions (in the caller's transaction)

    /// The customer approved: the bank checks the amount table, the per-payment limit and the
    /// balance, then takes the money and tells the host (or declines with the reason).
    package func approveBlik(_ db: Connection, _ order: inout OrderRecord) throws {
        guard let customerId = order.customerId, let customer = try db.blik.customer(customerId) else {
            // A code of the table: no account behind it.
            return try startPayment(db, &order)
        }
        if let rule = blikAmountRule(amount: order.amount, currency: order.currency) {
            return try finish(db, &order, as: .declined, reason: rule.reason?.rawValue ?? APMDeclineReason.declined_by_provider.rawValue)
        }
        if order.amount > customer.perPaymentLimit {
            return try finish(db, &order, as: .declined, reason: APMDeclineReason.limit_exceeded.rawValue)
        }
        if order.amount > customer.balance {
            return try finish(db, &order, as: .declined, reason: APMDeclineReason.insufficient_funds.rawValue)
        }
        try charge(db, &order, true)
        try startPayment(db, &order)
    }

    /// Takes the order's amount from the customer's balance (`true`) or gives it back (`false`),
    /// once each way: `charged` says where it stands.
    package func charge(_ db: Connection, _ order: inout OrderRecord, _ charged: Bool) throws {
        guard let customerId = order.customerId, order.charged != charged else { return }
        try db.blik.move(customerId, by: charged ? -order.amount : order.amount)
        order.charged = charged
        try db.orders.update(order)
    }

    /// Moves a refund's money back to (or, when the host refused the refund, away from) the
    /// customer of a BLIK order.
    package func creditRefund(_ db: Connection, order: OrderRecord, amount: Int) throws {
        guard let customerId = order.customerId else { return }
        try db.blik.move(customerId, by: amount)
    }

    /// The `blik.rules` entry of an amount: the trigger (44) in major units, and the hundredths.
    package func blikAmountRule(amount: Int, currency: String) -> WalletData.AmountRule? {
        guard let currency = Currency(code: currency),
            let digits = MagicAmounts.responseDigits(of: amount, trigger: blik.trigger, exponent: currency.exponent)
        else { return nil }
        return blik.rules.first { $0.digits == digits }
    }
}
