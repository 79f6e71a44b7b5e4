import Foundation
import SandboxCore
import Synchronization
import Testing

@Suite("DueWorker: a thread that sleeps until its work is due", .serialized)
struct DueWorkerTests {
    /// Counts passes and lets the test wait for the next one (bounded: a broken worker fails, it does not hang).
    final class Passes: Sendable {
        private let count = Atomic<Int>(0)
        private let passed = DispatchSemaphore(value: 0)
        func pass() {
            count.add(1, ordering: .sequentiallyConsistent)
            passed.signal()
        }
        var total: Int { count.load(ordering: .sequentiallyConsistent) }
        func next(within seconds: Int = 10) -> Bool { passed.wait(timeout: .now() + .seconds(seconds)) == .success }
    }

    @Test("a pass that has nothing due sleeps until woken; wake() runs the next pass")
    func wakeRunsAPass() {
        let passes = Passes()
        let worker = DueWorker(name: "test-worker")
        worker.start {
            passes.pass()
            return .distantFuture
        }
        #expect(passes.next(), "the first pass did not run")
        worker.wake()
        #expect(passes.next(), "wake() did not run another pass")
        worker.stop()
        #expect(passes.total == 2)
    }

    @Test("a pass that names a time is run again at that time, without a wake")
    func namedTimeRunsAPass() {
        let passes = Passes()
        let worker = DueWorker(name: "test-worker")
        worker.start {
            passes.pass()
            return passes.total < 3 ? DueWorker.sleep(milliseconds: 20) : .distantFuture
        }
        #expect(passes.next() && passes.next() && passes.next(), "\(passes.total) passes, 3 expected")
        worker.stop()
    }

    @Test("sleep(milliseconds:): nothing waiting sleeps until woken, a time that came looks again at once, a far one sleeps a day at most")
    func sleepTimes() throws {
        #expect(DueWorker.sleep(milliseconds: nil) == .distantFuture)
        #expect(DueWorker.sleep(milliseconds: 0) == nil)
        #expect(DueWorker.sleep(milliseconds: -5) == nil)
        let far = try #require(DueWorker.sleep(milliseconds: 10 * 86_400_000))
        let day = DispatchTime.now() + .seconds(86_400)
        #expect(far <= day && far > day - .seconds(60))
    }

    @Test("stop() returns once the pass under way ended; a worker never started stops at once")
    func stopWaitsForThePass() {
        let passes = Passes()
        let begun = DispatchSemaphore(value: 0)
        let worker = DueWorker(name: "test-worker")
        worker.start {
            begun.signal()
            usleep(50_000)  // a pass that takes a while: stop() must not return in its middle
            passes.pass()
            return .distantFuture
        }
        #expect(begun.wait(timeout: .now() + .seconds(10)) == .success, "the first pass did not begin")
        worker.stop()
        #expect(passes.total == 1, "stop() returned before the pass under way ended")
        DueWorker(name: "never-started").stop()
    }
}
