import Foundation
import SandboxStore
import Synchronization

/// Carries out what falls due on the wallet's clock (a rule's action, an order's deadline, a
/// refund's answer: ``OrderBook/tick()``) on one thread that sleeps until the next of them, or
/// until ``wake()``: a commit that set one (``OrderRepository/scheduleChannel``) or a move of the
/// wallet's clock. It never polls.
final class Scheduler: Sendable {
    private let book: OrderBook
    private let running = Atomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(book: OrderBook) {
        self.book = book
    }

    func start() {
        guard !running.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let thread = Thread { [self] in
            while running.load(ordering: .sequentiallyConsistent) {
                if let until = idleUntil() { _ = wakeUp.wait(timeout: until) }
            }
            finished.signal()
        }
        thread.name = "wallet-scheduler"
        thread.start()
    }

    func stop() {
        guard running.exchange(false, ordering: .sequentiallyConsistent) else { return }
        wakeUp.signal()
        finished.wait()
    }

    /// Looks at what is due now.
    func wake() { wakeUp.signal() }

    /// One pass: what is due is carried out; then how long the thread may sleep (nil: look again now).
    private func idleUntil() -> DispatchTime? {
        do {
            if try book.tick() > 0 { return nil }
            guard let next = try book.store.read({ db in try db.orders.nextDue() }) else { return .distantFuture }
            let wait = next - book.now
            if wait <= 0 { return nil }
            return .now() + .milliseconds(Int(min(wait, 86_400_000)))
        } catch {
            FileHandle.standardError.write(Data("wallet: carrying out due actions failed: \(error)\n".utf8))
            // A database that cannot be read or written now (a reset under way) is tried again in a second.
            return .now() + .seconds(1)
        }
    }
}
