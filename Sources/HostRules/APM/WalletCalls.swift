import FastJSON
import HostStorage
import SandboxStore
import SandboxWire

/// The calls the host owes the wallet, written to `wallet_calls` in the same database transaction
/// as the change that calls for them, and delivered by ``WalletCourier`` until the wallet answers:
/// a host killed after a cancel still closes the order once it runs again.
package enum WalletCalls {
    /// Close an order the merchant side ended (`cancelled`: the app's cancel; `expired`: the host's `apmTimeout`).
    package static func close(_ db: Connection, order: String, reason: String, at now: Int64) throws {
        try db.apm.enqueueCall(
            kind: "close", transaction: order, path: "/provider/v1/orders/\(order)/close",
            body: try SortedJSONEncoder.encode(WalletProvider.CloseRequest(reason: reason)), at: now, dueAt: 0)
    }

    /// Ask the wallet to pay a refund out; its outcome comes back as a notification.
    package static func refund(_ db: Connection, _ request: WalletProvider.RefundRequest, at now: Int64) throws {
        try db.apm.enqueueCall(
            kind: "refund", transaction: request.refundId, path: "/provider/v1/refunds", body: try SortedJSONEncoder.encode(request), at: now, dueAt: 0)
    }
}
