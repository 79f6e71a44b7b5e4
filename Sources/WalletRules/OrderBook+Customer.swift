import WalletStorage
import Foundation
import SandboxStore
import SandboxWire

/// The customer's side: what the pay page's buttons (and their API twins) do.
extension OrderBook {
    /// The customer opened the pay page: a pending order becomes scanned (a scanned one stays).
    package func scan(_ orderId: String) throws -> OrderRecord {
        try change(orderId) { db, order in
            if order.isBlik { throw WalletError.blikNoScan }
            if order.status == .scanned { return }
            try markScanned(db, &order)
        }
    }

    /// The pay page was opened: scans the order if it is still pending, and never fails. The page
    /// does not wait for the host to hear of it: the notifier's thread tells it.
    package func scanIfPending(_ orderId: String) {
        _ = try? change(orderId, deliverNow: false) { db, order in
            if order.status == .pending, !order.isBlik { try markScanned(db, &order) }
        }
    }

    /// The customer pressed Pay (BLIK: Approve, after the bank's checks): the order is `paying`
    /// and the host is told; answers once the host acknowledged (`paid`) or refused (`refused`),
    /// or after ``payWait`` (`paying`; the notification goes on being retried).
    package func pay(_ orderId: String) throws -> OrderRecord {
        let paying = try change(orderId) { db, order in
            if order.isBlik { try approveBlik(db, &order) } else { try startPayment(db, &order) }
        }
        return waitWhilePaying(paying)
    }

    package func decline(_ orderId: String, reason: APMDeclineReason) throws -> OrderRecord {
        try change(orderId) { db, order in try finish(db, &order, as: .declined, reason: reason.rawValue) }
    }

    /// "Let it expire".
    package func expire(_ orderId: String) throws -> OrderRecord {
        try change(orderId) { db, order in try finish(db, &order, as: .expired, reason: nil) }
    }

    package func orders(openOnly: Bool, limit: Int = 200) throws -> [OrderRecord] {
        try store.read { db in try db.orders.list(openOnly: openOnly, limit: limit) }
    }

    // MARK: Transitions (in the caller's transaction)

    /// A payable order, changed by `body` and written with its notifications, which are then
    /// delivered on this thread (`deliverNow`) or left to the notifier's.
    ///
    /// - Throws: ``WalletError/orderNotFound``; ``WalletError/notPayable(_:)`` when the order is no
    ///   longer pending or scanned.
    private func change(
        _ orderId: String, deliverNow: Bool = true, _ body: (Connection, inout OrderRecord) throws -> Void
    ) throws -> OrderRecord {
        let changed = try store.write { db -> OrderRecord in
            guard var order = try db.orders.find(orderId) else { throw WalletError.orderNotFound }
            guard order.isPayable else { throw WalletError.notPayable(order.status) }
            try body(db, &order)
            return order
        }
        orderChanged.broadcast()
        if !deliverNow || !deliverHere(orderId) { outboxChanged.broadcast() }
        return changed
    }

    package func markScanned(_ db: Connection, _ order: inout OrderRecord) throws {
        order.status = .scanned
        try db.orders.update(order)
        try notify(db, .orderScanned, order: order)
    }

    /// Pay on an order whose QR was never opened (the API's shortcut) tells the host the payment
    /// alone: `order.paid` says the customer had the order in front of them, and one message is
    /// half the round trips of a scan and a payment.
    package func startPayment(_ db: Connection, _ order: inout OrderRecord) throws {
        order.status = .paying
        order.paymentId = ids.next("wpay")
        order.plan = nil
        try db.orders.update(order)
        try notify(db, .orderPaid, order: order, paymentId: order.paymentId)
    }

    package func finish(_ db: Connection, _ order: inout OrderRecord, as status: WalletProvider.OrderStatus, reason: String?) throws {
        order.status = status
        order.reason = reason
        order.plan = nil
        try db.orders.update(order)
        try notify(db, status == .declined ? .orderDeclined : .orderExpired, order: order, reason: reason)
    }

    /// The order once it is no longer `paying`, or as it is after ``payWait``.
    package func waitWhilePaying(_ order: OrderRecord) -> OrderRecord {
        let (seconds, attoseconds) = payWait.components
        let deadline = Date().addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        var current = order
        while current.status == .paying, Date() < deadline {
            let mark = orderChanged.mark
            // Read after taking the mark: an answer recorded in between is seen now, one after wakes the wait.
            guard let read = try? store.read({ db in try db.orders.find(order.orderId) }) else { break }
            current = read
            if current.status == .paying { orderChanged.wait(after: mark, until: deadline) }
        }
        return current
    }
}
