import SandboxWire

/// One notification waiting for (or past) its delivery to a host.
struct OutboxEntry: Sendable, Equatable {
    enum State: String, Sendable {
        /// Not acknowledged yet: retried.
        case pending
        /// The host answered 2xx.
        case delivered
        /// The host answered 409: the order could no longer take it.
        case refused
        /// Made pointless before it went out (a payment of an order the host closed meanwhile).
        case dropped
    }

    var seq: Int64
    var id: String
    var region: String
    var orderId: String
    var type: WalletProvider.NotificationType
    var body: [UInt8]
    var attempts: Int
}
