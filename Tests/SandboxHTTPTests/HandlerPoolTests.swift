import Foundation
@testable import SandboxHTTP
import Testing

@Suite("Handler threads")
struct HandlerPoolTests {
    @Test("threads start only when a job finds none idle, never more than the limit, and every job runs")
    func threadsStartOnDemand() {
        let pool = HandlerPool(threads: 3, name: "test")
        defer { pool.shutdown() }
        #expect(pool.threadCount == 0, "a pool that was given nothing to do started threads")

        // One job at a time (each over before the next comes): one thread does them all.
        let ran = Counter()
        for _ in 0..<5 {
            #expect(pool.submit { ran.add() })
            pool.waitUntilIdle()
        }
        #expect(ran.value == 5)
        #expect(pool.threadCount == 1)

        // Five jobs that wait together: three threads (the limit), and the last two run after.
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<5 {
            #expect(pool.submit {
                _ = release.wait(timeout: .now() + .seconds(10))
                finished.signal()
            })
        }
        for _ in 0..<5 { release.signal() }
        for _ in 0..<5 { #expect(finished.wait(timeout: .now() + .seconds(10)) == .success) }
        #expect(pool.threadCount == 3)
    }

    @Test("a closed pool takes no more jobs; shutdown runs the queued ones first")
    func closeAndShutdown() {
        let pool = HandlerPool(threads: 1, name: "test")
        let ran = Counter()
        let gate = DispatchSemaphore(value: 0)
        #expect(pool.submit { _ = gate.wait(timeout: .now() + .seconds(10)); ran.add() })
        #expect(pool.submit { ran.add() })
        pool.close()
        #expect(!pool.submit { ran.add() })
        gate.signal()
        pool.shutdown()
        #expect(ran.value == 2)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
