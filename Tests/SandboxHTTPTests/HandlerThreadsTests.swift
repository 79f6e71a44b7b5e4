import Foundation
@testable import SandboxHTTP
import SandboxTestSupport
import Testing

@Suite(.blocksThreads) struct HandlerThreadsTests {
    @Test("a job never waits for a busy thread: twenty jobs that wait for each other all run, and idle threads end")
    func everyJobGetsAThread() throws {
        let threads = HandlerThreads(idleSeconds: 0.2)
        let count = 20
        let arrived = DispatchSemaphore(value: 0)
        let allArrived = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            threads.run {
                arrived.signal()
                // Returns only once every job runs at the same time (bounded, so a pool that queues fails).
                if allArrived.wait(timeout: .now() + .seconds(60)) == .success { finished.signal() }
            }
        }
        for _ in 0..<count { #expect(arrived.wait(timeout: .now() + .seconds(60)) == .success) }
        #expect(threads.threadCount == count)
        for _ in 0..<count { allArrived.signal() }
        for _ in 0..<count { #expect(finished.wait(timeout: .now() + .seconds(60)) == .success) }
        // Idle for longer than 0.2 s, the threads end (polled: the test never sleeps for a fixed time).
        #expect(eventuallyBlocking { threads.threadCount == 0 })
        // A job after that starts a thread again.
        let again = DispatchSemaphore(value: 0)
        threads.run { again.signal() }
        #expect(again.wait(timeout: .now() + .seconds(60)) == .success)
    }
}
