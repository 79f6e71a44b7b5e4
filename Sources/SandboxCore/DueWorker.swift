import Foundation
import Synchronization

/// A background thread that sleeps until its work is due: it runs a pass, which does what is due
/// and names when to look again (nil: at once; `.distantFuture`: only when woken), then sleeps
/// until then or until ``wake()`` (a commit that gave it work, a move of its clock). It never polls.
///
/// ```swift
/// let worker = DueWorker(name: "webhook-dispatcher")
/// worker.start { [self] in idleUntil() }   // the pass holds its owner until stop()
/// store.listen("webhooks") { [weak worker] in worker?.wake() }
/// ```
public final class DueWorker: Sendable {
    private let name: String
    private let running = Atomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// - Parameter name: the thread's name, as `top` and `perf` show it.
    public init(name: String) {
        self.name = name
    }

    /// Starts the thread, which runs `pass` and sleeps as it says until ``stop()``.
    public func start(_ pass: @escaping @Sendable () -> DispatchTime?) {
        guard !running.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let thread = Thread { [self] in
            while running.load(ordering: .sequentiallyConsistent) {
                if let until = pass() { _ = wakeUp.wait(timeout: until) }
            }
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Ends the sleep now: the thread runs its pass again.
    public func wake() { wakeUp.signal() }

    /// Stops the thread after the pass under way; a worker never started returns at once.
    public func stop() {
        guard running.exchange(false, ordering: .sequentiallyConsistent) else { return }
        wakeUp.signal()
        finished.wait()
    }

    /// When a pass that found nothing due may sleep until: `wait` milliseconds from now (a day at
    /// most), or a look again at once when that time has come; nil `wait` (nothing waiting): until woken.
    public static func sleep(milliseconds wait: Int64?) -> DispatchTime? {
        guard let wait else { return .distantFuture }
        if wait <= 0 { return nil }
        return .now() + .milliseconds(Int(min(wait, 86_400_000)))
    }
}
