import WalletStorage
import Foundation
import SandboxCore
import SandboxStore
import SandboxWire

/// Standing rules and amounts that pick an outcome: what the wallet does on its own with an
/// order, decided when the host makes it and carried out `afterSeconds` later on the wallet's
/// clock (by ``tick()``, which the scheduler calls and every clock move too).
extension OrderBook {
    /// The oldest standing rule for orders that matches (one use taken), else the amount's rule.
    package func plan(_ db: Connection, for request: WalletProvider.OrderRequest, now: Int64) throws -> OrderRecord.Plan? {
        if let plan = try standingRulePlan(db, region: request.region, merchantId: request.merchantId, terminalId: request.terminalId, now: now) {
            return plan
        }
        guard let rule = amountRule(amount: request.amount, currency: request.currency, region: request.region) else { return nil }
        return OrderRecord.Plan(action: rule.outcome, reason: rule.reason?.rawValue, dueAt: now + Self.milliseconds(rule.afterSeconds ?? 0))
    }

    /// The `wallet.json` rule of an amount: the trigger (43) in major units, and the hundredths.
    /// The oldest standing rule for orders that matches, one use taken (QR orders and BLIK payments alike).
    package func standingRulePlan(_ db: Connection, region: String, merchantId: String, terminalId: String, now: Int64) throws -> OrderRecord.Plan? {
        guard let rule = try db.rules.all().first(where: {
            $0.appliesTo == .orders && $0.matches(region: region, merchantId: merchantId, terminalId: terminalId)
        }) else { return nil }
        try db.rules.use(rule)
        return OrderRecord.Plan(action: rule.action, reason: rule.reason, dueAt: now + Self.milliseconds(rule.afterSeconds))
    }

    package func amountRule(amount: Int, currency: String, region: String) -> WalletData.AmountRule? {
        guard let currency = Currency(code: currency),
            let digits = MagicAmounts.responseDigits(of: amount, trigger: data.trigger(region: region), exponent: currency.exponent)
        else { return nil }
        return data.rules.first { $0.digits == digits }
    }

    package static func milliseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1000).rounded()) }

    // MARK: Standing rules

    package func addRule(_ rule: StandingRule) throws {
        try store.write { db in try db.rules.insert(rule) }
    }

    package func rules() throws -> [StandingRule] { try store.read { db in try db.rules.all() } }

    /// A seed's wallet part, in one write: customers made or changed, rules added.
    package func applySeed(customers: [WalletBlik.Customer], rules: [StandingRule]) throws {
        try store.write { db in
            for customer in customers { try db.blik.upsert(customer) }
            for rule in rules { try db.rules.insert(rule) }
        }
    }

    package func deleteRule(_ ruleId: String) throws {
        guard try store.write({ db in try db.rules.delete(ruleId) }) else { throw WalletError.ruleNotFound }
    }

    package func deleteRules() throws { try store.write { db in try db.rules.deleteAll() } }

    // MARK: Time

    /// Carries out what is due on the wallet's clock: planned actions, the wallet's own deadline
    /// of orders nobody paid, refunds' answers.
    ///
    /// - Returns: how many things changed.
    @discardableResult
    package func tick() throws -> Int {
        let now = now
        // A read first: an idle wallet does not commit (and sync) ten times a second.
        guard let due = try store.read({ db in try db.orders.nextDue() }), due <= now else { return 0 }
        let changes = try store.write { db -> Int in
            var changes = 0
            for var order in try db.orders.planned(dueBy: now) {
                guard let plan = order.plan else { continue }
                order.plan = nil
                switch (order.isPayable, plan.action) {
                case (false, _):
                    try db.orders.update(order)
                case (true, _) where plan.dueAt >= order.expiresAt:
                    // The deadline came first: the order expired before the rule's time.
                    try finish(db, &order, as: .expired, reason: nil)
                case (true, .approve):
                    // A BLIK customer's bank still checks the limit and the balance.
                    if order.isBlik { try approveBlik(db, &order) } else { try startPayment(db, &order) }
                case (true, .decline):
                    try finish(db, &order, as: .declined, reason: plan.reason ?? APMDeclineReason.declined_by_customer.rawValue)
                case (true, .expire):
                    try finish(db, &order, as: .expired, reason: nil)
                case (true, .scanOnly):
                    if order.status == .pending, !order.isBlik { try markScanned(db, &order) } else { try db.orders.update(order) }
                }
                changes += 1
            }
            for var order in try db.orders.overdue(at: now) {
                try finish(db, &order, as: .expired, reason: nil)
                changes += 1
            }
            changes += try answerDueRefunds(db, now: now)
            return changes
        }
        if changes > 0 {
            outboxChanged.broadcast()
            orderChanged.broadcast()
        }
        return changes
    }
}
