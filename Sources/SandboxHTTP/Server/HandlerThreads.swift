import Foundation

/// Threads for handlers that answer on their own thread and may block there (a write waiting for
/// its sync, a call to another service), so that they never hold one of a server's polling
/// threads: a thread is started when every one is busy, and one that has been idle for
/// `idleSeconds` ends.
///
/// ```swift
/// HandlerThreads.shared.run { reply(router.respond(to: request)) }
/// ```
public final class HandlerThreads: @unchecked Sendable {
    /// The threads every server's handlers share.
    public static let shared = HandlerThreads(idleSeconds: 5)

    private let idleSeconds: Double
    private let condition = NSCondition()
    // Under `condition`:
    private var jobs: [@Sendable () -> Void] = []
    private var next = 0  // index of the oldest job not taken yet
    private var idle = 0
    private var running = 0

    init(idleSeconds: Double) {
        self.idleSeconds = idleSeconds
    }

    /// Runs `job` on a thread of the pool, at once: a new thread starts when none is idle.
    public func run(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        let wakes = jobs.count - next <= idle
        if !wakes {
            running += 1
            let thread = Thread { [self] in
                Thread.current.name = "http-handler"  // set on the thread itself, it is what top and perf show
                work()
            }
            thread.start()
        }
        condition.unlock()
        // Signalled once unlocked: a thread woken while the lock is held wakes only to wait for it.
        if wakes { condition.signal() }
    }

    /// Threads alive now (busy or idle).
    public var threadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return running
    }

    private func work() {
        condition.lock()
        while true {
            while next == jobs.count {
                idle += 1
                let woken = condition.wait(until: Date(timeIntervalSinceNow: idleSeconds))
                idle -= 1
                if !woken && next == jobs.count {
                    running -= 1
                    condition.unlock()
                    return
                }
            }
            let job = jobs[next]
            next += 1
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            } else if next >= 1024 && next * 2 >= jobs.count {
                jobs.removeFirst(next)  // a queue that never drains does not grow without end
                next = 0
            }
            condition.unlock()
            job()
            condition.lock()
        }
    }
}
