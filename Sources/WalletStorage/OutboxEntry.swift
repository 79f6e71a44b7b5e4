import SandboxWire

/// One notification waiting for (or past) its delivery to a host.
package struct OutboxEntry: Sendable, Equatable {
    package enum State: String, Sendable {
        /// Not acknowledged yet: retried.
        case pending
        /// The host answered 2xx.
        case delivered
        /// The host answered 409: the order could no longer take it.
        case refused
        /// Made pointless before it went out (a payment of an order the host closed meanwhile).
        case dropped
    }

    package var seq: Int64
    package var id: String
    package var region: String
    package var orderId: String
    package var type: WalletProvider.NotificationType
    package var body: [UInt8]
    package var attempts: Int
}
