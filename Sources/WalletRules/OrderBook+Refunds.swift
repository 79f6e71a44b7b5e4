import WalletStorage
import FastJSON
import Foundation
import SandboxStore
import SandboxWire

/// Refunds the hosts ask for: taken at once (202), answered by a notification when due.
extension OrderBook {
    /// Takes a refund of a paid order; the same request again answers the same refund.
    ///
    /// - Throws: ``WalletError/orderNotFound``, ``WalletError/refundNotAllowed(_:)`` for an order
    ///   that is not paid, ``WalletError/refundOverAmount(left:)`` past what is left of the
    ///   payment, ``WalletError/refundReused`` for another refund with the same id.
    package func refund(_ request: WalletProvider.RefundRequest, region: String) throws -> RefundRecord {
        let canonical = String(decoding: try SortedJSONEncoder.encode(request), as: UTF8.self)
        let now = now
        let refund = try store.write { db -> RefundRecord in
            if let existing = try db.refunds.find(request.refundId) {
                guard existing.request == canonical, existing.region == region else { throw WalletError.refundReused }
                return existing
            }
            guard let order = try db.orders.find(request.orderId), order.region == region else { throw WalletError.orderNotFound }
            guard order.status == .paid else { throw WalletError.refundNotAllowed(order.status) }
            let left = order.amount - (try db.refunds.committedAmount(of: order.orderId))
            guard request.amount <= left else { throw WalletError.refundOverAmount(left: left) }
            var outcome = RuleAction.approve, reason: String? = nil, after = 0.0
            if let rule = try db.rules.all().first(where: {
                $0.appliesTo == .refunds && $0.matches(region: order.region, merchantId: order.merchantId, terminalId: order.terminalId)
            }) {
                try db.rules.use(rule)
                outcome = rule.action
                reason = rule.action == .decline ? (rule.reason ?? APMDeclineReason.declined_by_provider.rawValue) : nil
                after = rule.afterSeconds
            }
            let refund = RefundRecord(
                refundId: request.refundId, orderId: order.orderId, region: region, amount: request.amount,
                reference: request.reference, status: .pending, reason: nil, providerId: nil, outcome: outcome,
                outcomeReason: reason, dueAt: now + Self.milliseconds(after), createdAt: now, request: canonical)
            try db.refunds.insert(refund)
            return refund
        }
        return refund
    }

    /// Answers the refunds due at `now`: `refund.succeeded` with the wallet's refund id, or
    /// `refund.failed` with the rule's reason.
    package func answerDueRefunds(_ db: Connection, now: Int64) throws -> Int {
        var count = 0
        for var refund in try db.refunds.due(by: now) {
            guard let order = try db.orders.find(refund.orderId) else { continue }
            if refund.outcome == .decline {
                refund.status = .failed
                refund.reason = refund.outcomeReason ?? APMDeclineReason.declined_by_provider.rawValue
                try notify(db, .refundFailed, order: order, refundId: refund.refundId, reason: refund.reason)
            } else {
                refund.status = .succeeded
                refund.providerId = ids.next("wref")
                try notify(db, .refundSucceeded, order: order, refundId: refund.refundId, paymentId: refund.providerId)
                // Back to a BLIK customer's account (taken back if the host refuses the refund).
                try creditRefund(db, order: order, amount: refund.amount)
            }
            try db.refunds.finish(refund)
            count += 1
        }
        return count
    }

    package func refundRecord(_ refundId: String, region: String) throws -> RefundRecord {
        guard let refund = try store.read({ db in try db.refunds.find(refundId) }), refund.region == region else {
            throw WalletError(404, .notFound, "The wallet has no refund with that id.", field: "refundId")
        }
        return refund
    }
}
