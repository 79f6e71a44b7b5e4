import Foundation
import LockedValue
import SandboxCore
import SandboxStore
import Testing
import HostTestSupport
import WalletRules
import WalletStorage

/// The notifier's deliverer: what a customer's approval calls, on its own thread, for every payment.
@Suite struct DelivererTests {
    /// It was kept as a bare function in a lock box, and each read through `withLockedValue` wrapped
    /// it in two more reabstraction thunks: a BLIK payment cost 0.7 ms more CPU after ten seconds of
    /// load, and a long run would overflow the stack. The 2,000th delivery runs as deep as the first.
    @Test func theTwoThousandthDeliveryRunsAsDeepAsTheFirst() throws {
        let book = try OrderBook(
            store: Store.temporary(migrations: WalletSchema.migrations), clock: .standingStill(), realTime: WallClock(), data: walletData,
            ids: .random, publicURL: { "http://127.0.0.1" }, payWait: .seconds(1))
        let depths = LockedValueBox<[Int]>([])
        book.setDeliverer { _ in
            let depth = Thread.callStackReturnAddresses.count
            depths.withLockedValue { $0.append(depth) }
        }
        for _ in 0..<2_000 { #expect(book.deliverHere("ord_1")) }
        let seen = depths.withLockedValue { $0 }
        #expect(seen.count == 2_000)
        #expect(seen.first == seen.last, "stack depth at the 1st delivery \(seen.first ?? 0), at the 2,000th \(seen.last ?? 0)")
        book.setDeliverer(nil)
        #expect(!book.deliverHere("ord_1"), "no deliverer: the notifier's thread takes it")
    }
}
