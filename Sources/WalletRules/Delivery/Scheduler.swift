import WalletStorage
import Foundation
import SandboxCore
import SandboxStore

/// Carries out what falls due on the wallet's clock (a rule's action, an order's deadline, a
/// refund's answer: ``OrderBook/tick()``) on a ``DueWorker`` that sleeps until the next of them,
/// or until ``wake()``: a commit that set one (``OrderRepository/scheduleChannel``) or a move of
/// the wallet's clock.
package final class Scheduler: Sendable {
    private let book: OrderBook
    private let worker = DueWorker(name: "wallet-scheduler")

    package init(book: OrderBook) {
        self.book = book
    }

    package func start() { worker.start { [self] in idleUntil() } }

    package func stop() { worker.stop() }

    /// Looks at what is due now.
    package func wake() { worker.wake() }

    /// One pass: what is due is carried out; then how long the thread may sleep (nil: look again now).
    private func idleUntil() -> DispatchTime? {
        do {
            if try book.tick() > 0 { return nil }
            let next = try book.store.read { db in try db.orders.nextDue() }
            return DueWorker.sleep(milliseconds: next.map { $0 - book.now })
        } catch {
            FileHandle.standardError.write(Data("wallet: carrying out due actions failed: \(error)\n".utf8))
            // A database that cannot be read or written now (a reset under way) is tried again in a second.
            return .now() + .seconds(1)
        }
    }
}
