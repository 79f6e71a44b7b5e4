import WalletStorage
import FastJSON
import LockedValue
import SandboxTime
import Foundation
import SandboxCore
import SandboxStore
import SandboxWire

/// The wallet's orders, refunds and rules: every state change, each written with its outbox
/// notification in one transaction.
///
/// An order is made `pending` by a host, becomes `scanned` when the customer opens its pay page,
/// `paying` when they press Pay (the host is told, nothing is charged yet), then `paid` once the
/// host acknowledged, or `refused` when the host answered 409 (the order had closed there). A
/// payable order (pending or scanned) may also be `declined`, `expired` (by the customer, a rule,
/// or the wallet's own deadline) or `closed` by the host.
package final class OrderBook: Sendable {
    package let store: Store
    /// The wallet's clock (orders, rules, refunds); `POST /_sandbox/clock` moves it.
    package let clock: SandboxClock
    /// Real time, for delivery retries.
    package let realTime: any TimeSource
    package let data: WalletData
    package let ids: IdentifierSource
    /// The digits of BLIK codes.
    package let codes: BlikCodeSource
    /// The base of every `payUrl`.
    package let publicURL: @Sendable () -> String
    /// Wakes the notifier when a notification is queued.
    package let outboxChanged: ChangeSignal
    /// Wakes the customers waiting for an order to change.
    package let orderChanged: ChangeSignal
    /// Delivers an order's queued notifications on the calling thread; set while the notifier
    /// runs (``Notifier/deliverNow(orderId:)``), nil: they wait for the notifier's thread.
    private let deliverer = LockedValueBox<Deliverer?>(nil)
    /// How long a customer's Pay waits for the host's answer before it answers `paying`.
    package let payWait: Duration

    package init(
        store: Store, clock: SandboxClock, realTime: any TimeSource, data: WalletData, ids: IdentifierSource,
        codes: BlikCodeSource = .random, publicURL: @escaping @Sendable () -> String, payWait: Duration
    ) throws {
        self.store = store
        self.clock = clock
        self.realTime = realTime
        self.data = data
        self.ids = ids
        self.codes = codes
        self.publicURL = publicURL
        self.payWait = payWait
        outboxChanged = ChangeSignal()
        orderChanged = ChangeSignal()
        try store.write { [data] db in try db.blik.seed(data.blik.customers) }
    }

    package var now: Int64 { clock.nowMilliseconds() }

    /// The function in a struct: a bare function kept in a generic box is wrapped in one more
    /// reabstraction thunk at each `withLockedValue` that reads it (the value goes out and back
    /// through `inout`), so after n payments a delivery went through 2n thunks: 0.7 ms more of CPU
    /// per BLIK payment after a 10-second run, and in the end a stack overflow.
    private struct Deliverer: Sendable {
        let deliver: @Sendable (String) -> Void
    }

    /// Sets (or, nil, takes away) what delivers an order's notifications on the thread that changed it.
    package func setDeliverer(_ deliver: (@Sendable (String) -> Void)?) {
        deliverer.withLockedValue { $0 = deliver.map(Deliverer.init) }
    }

    /// Delivers `orderId`'s queued notifications on this thread: false when no deliverer is set
    /// (the notifier's thread takes them).
    package func deliverHere(_ orderId: String) -> Bool {
        guard let deliverer = deliverer.withLockedValue({ $0 }) else { return false }
        deliverer.deliver(orderId)
        return true
    }

    // MARK: The provider side (hosts)

    /// Makes the order, or answers the one made before with the same request: `completion` hears
    /// the order and whether it is new once that is durable (on the store's thread), or
    /// ``WalletError/orderReused`` when the id was used for another order.
    package func create(
        _ request: WalletProvider.OrderRequest, then completion: @escaping @Sendable (Result<(OrderRecord, created: Bool), any Error>) -> Void
    ) throws {
        let canonical = String(decoding: try SortedJSONEncoder.encode(request), as: UTF8.self)
        let now = now
        let payUrl = publicURL() + "/pay/" + request.orderId
        store.write({ [self] db in
            if let existing = try db.orders.find(request.orderId) {
                guard existing.request == canonical else { throw WalletError.orderReused }
                return (existing, false)
            }
            let plan = try plan(db, for: request, now: now)
            let order = OrderRecord(request: request, canonical: canonical, payUrl: payUrl, createdAt: now, plan: plan)
            try db.orders.insert(order)
            return (order, true)
        }, then: completion)
    }

    /// An order of `region` (another region's orders are not there for it).
    package func order(_ orderId: String, region: String? = nil) throws -> OrderRecord {
        guard let order = try store.read({ db in try db.orders.find(orderId) }), region.map({ $0 == order.region }) ?? true
        else { throw WalletError.orderNotFound }
        return order
    }

    /// The host ended an unpaid order (`cancelled` or `expired`).
    ///
    /// A final order is answered as it is; a paid one is refused with ``WalletError/orderPaid``.
    /// An order whose payment the host has not acknowledged yet is closed and its payment
    /// dropped: the host decides, and it has closed the order.
    package func close(_ orderId: String, region: String, reason: String) throws -> OrderRecord {
        let changed = try store.write { db -> OrderRecord in
            guard var order = try db.orders.find(orderId), order.region == region else { throw WalletError.orderNotFound }
            switch order.status {
            case .paid:
                throw WalletError.orderPaid
            case .pending, .scanned, .paying:
                if order.status == .paying { try db.outbox.drop(orderId: orderId, type: .orderPaid) }
                // The payment is dropped: a BLIK customer gets the money back.
                try charge(db, &order, false)
                order.status = .closed
                order.reason = reason
                order.plan = nil
                try db.orders.update(order)
                return order
            case .closed, .declined, .expired, .refused:
                return order
            }
        }
        orderChanged.broadcast()
        return changed
    }

    // MARK: Notifications

    /// Queues a notification to the order's host, in the caller's transaction.
    package func notify(
        _ db: Connection, _ type: WalletProvider.NotificationType, order: OrderRecord, refundId: String? = nil,
        paymentId: String? = nil, reason: String? = nil
    ) throws {
        let notification = WalletProvider.Notification(
            id: ids.next("wn"), type: type, orderId: order.orderId, refundId: refundId, paymentId: paymentId, reason: reason)
        try db.outbox.add(notification, region: order.region, body: try SortedJSONEncoder.encode(notification), now: realTime.nowMilliseconds())
    }

    /// What a host answered to a notification: 2xx took it, 409 refused it (with its message).
    package enum Answer: Sendable, Equatable {
        case acknowledged(status: Int)
        case refused(message: String)
    }

    /// Records the host's final answer to a notification: a payment it took makes the order
    /// `paid`, one it refused makes it `refused` (nothing charged, the host's message as reason).
    ///
    /// Answered once committed, not synced: should a crash of the machine lose it, the entry is
    /// pending again, and the host, which keeps the ids it took, acknowledges its redelivery as a
    /// repeat, which records it then (the customer is charged once, by whichever record stays).
    /// `answeredAt`: when the answer arrived (real time, kept on the entry).
    package func record(_ entry: OutboxEntry, _ answer: Answer, answeredAt: Int64) throws {
        try store.write(.committed) { db in
            switch answer {
            case .acknowledged(let status):
                try db.outbox.finish(entry.seq, state: .delivered, status: status, answeredAt: answeredAt)
                // The host took the payment: the customer is charged, even if a close crossed it.
                if entry.type == .orderPaid, var order = try db.orders.find(entry.orderId), order.status == .paying || order.status == .closed {
                    try charge(db, &order, true)
                    order.status = .paid
                    order.reason = nil
                    try db.orders.update(order)
                }
            case .refused(let message):
                try db.outbox.finish(entry.seq, state: .refused, status: 409, answeredAt: answeredAt)
                if entry.type == .orderPaid, var order = try db.orders.find(entry.orderId), order.status == .paying {
                    try charge(db, &order, false)
                    order.status = .refused
                    order.reason = message
                    try db.orders.update(order)
                }
                // A refund the host no longer takes (past its apmRefundTimeout) is not paid out.
                if entry.type == .refundSucceeded,
                    let refundId = (try? JSONDecoder().decode(WalletProvider.Notification.self, from: Data(entry.body)))?.refundId,
                    var refund = try db.refunds.find(refundId)
                {
                    refund.status = .failed
                    refund.reason = message
                    refund.providerId = nil
                    try db.refunds.finish(refund)
                    if let order = try db.orders.find(refund.orderId) { try creditRefund(db, order: order, amount: -refund.amount) }
                }
            }
        }
        orderChanged.broadcast()
    }

    /// Brings back a snapshot of the wallet's database (`Connection.backup(to:)`) whole
    /// (``Store/restore(from:)``), its clock offset with it: orders, refunds, rules, notifications,
    /// BLIK codes and balances are the snapshot's.
    package func restore(from path: String) throws {
        try store.restore(from: path)
        let offset = try store.read { db in try db.walletState.clockOffset() }
        clock.restore(offset: offset)
        orderChanged.broadcast()
    }

    /// Forgets every order, refund, rule, notification and BLIK code, and puts the BLIK balances
    /// back as `wallet.json` has them (`POST /_sandbox/reset`).
    package func reset() throws {
        try store.write { db in
            try db.outbox.deleteAll()
            try db.refunds.deleteAll()
            try db.orders.deleteAll()
            try db.rules.deleteAll()
            try db.blik.reset(to: data.blik.customers)
        }
        orderChanged.broadcast()
    }
}
