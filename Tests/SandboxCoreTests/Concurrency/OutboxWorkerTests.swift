import Foundation
import SandboxCore
import Synchronization
import Testing

@Suite("OutboxWorker: claims, deliveries on their own threads, a drained stop; RetrySchedule", .serialized)
struct OutboxWorkerTests {
    @Test("a key in flight is not claimed twice; its delivery's end releases it and wakes the pass")
    func claimsAndSpawns() {
        let worker = OutboxWorker(name: "test-outbox", concurrency: 2, drainTimeout: .seconds(5))
        let passes = DueWorkerTests.Passes()
        worker.start {
            passes.pass()
            return .distantFuture
        }
        #expect(passes.next(), "the first pass did not run")
        let gate = DispatchSemaphore(value: 0)
        #expect(worker.spawn("evt_1", lane: "http://a") { _ = gate.wait(timeout: .now() + 10) })
        #expect(!worker.spawn("evt_1", lane: "http://a") {}, "evt_1 is in flight")
        #expect(!worker.claim("evt_1"), "evt_1 is in flight")
        #expect(worker.inFlight == ["evt_1": "http://a"] && worker.free == 1)
        gate.signal()
        #expect(passes.next(), "the delivery's end did not wake the pass")
        #expect(worker.inFlight.isEmpty && worker.claim("evt_1"), "released")
        worker.release("evt_1", wake: false)
        worker.stop()
    }

    @Test("stop waits for the deliveries in flight")
    func stopDrains() {
        let worker = OutboxWorker(name: "test-outbox", concurrency: 1, drainTimeout: .seconds(10))
        worker.start { .distantFuture }
        let done = Atomic<Bool>(false)
        worker.spawn("order-1") {
            usleep(200_000)
            done.store(true, ordering: .sequentiallyConsistent)
        }
        worker.stop()
        let ended = done.load(ordering: .sequentiallyConsistent)
        #expect(ended, "stop returned before the delivery ended")
    }

    @Test("a table's waits, the last repeated; doubling up to the longest")
    func schedules() {
        let table = RetrySchedule.table([500, 1_000, 30_000])
        #expect([1, 2, 3, 4, 9].map(table.wait(after:)) == [500, 1_000, 30_000, 30_000, 30_000])
        #expect(table.attempts == 3)
        let doubling = RetrySchedule.doubling(first: 100, longest: 1_000)
        #expect([1, 2, 3, 4, 5, 60].map(doubling.wait(after:)) == [100, 200, 400, 800, 1_000, 1_000])
        #expect(doubling.attempts == nil)
    }
}
