import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

/// Two wallet simulators on one PostgreSQL database (the second pass of `make test`): replicas
/// of one wallet, sharing its orders and its outbox.
@Suite(.enabled(if: InProcessHost.onPostgres, "replicas share a PostgreSQL database"))
struct WalletReplicaTests {
    @Test("notifications waiting for a host that fails are sent by one replica each: every one acknowledged once")
    func eachNotificationIsSentByOneReplica() async throws {
        let host = try RecordingWalletHost()
        host.answer(with: .fail)
        let directory = TemporaryDirectory()
        let replicas = [
            try InProcessWallet(directory: directory, hosts: ["EU": host.url], payWait: .milliseconds(20)),
            try InProcessWallet(directory: directory, hosts: ["EU": host.url], payWait: .milliseconds(20)),
        ]
        defer { for replica in replicas { replica.stop() }; host.stop() }
        let orders = (0..<40).map { "tx-\($0)" }
        for (index, order) in orders.enumerated() {
            let replica = replicas[index % 2]
            expectReply(replica.makeOrder(order), 201, nil, "make \(order)")
            #expect(replica.press("pay", order).string("status") == "paying")
        }
        // Both replicas' notifiers retry (every 50–200 ms); once they have, the host comes back.
        #expect(await eventually { host.failedCount >= 2 * orders.count }, "\(host.failedCount) attempts")
        host.answer(with: .acknowledge)
        #expect(await eventually { orders.allSatisfy { replicas[0].order($0).string("status") == "paid" } }, "not every order was paid")
        let counts = Dictionary(grouping: host.notifications.map(\.id), by: { $0 }).mapValues(\.count)
        #expect(counts.count == orders.count, "\(counts.count) notifications acknowledged for \(orders.count) orders")
        #expect(counts.values.allSatisfy { $0 == 1 }, "acknowledged twice: \(counts.filter { $0.value > 1 }.keys.sorted())")
        #expect(try replicas[1].wallet.pendingNotifications() == 0)
    }
}
