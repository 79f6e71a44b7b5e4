import Foundation
import SandboxCore
import Testing

@Suite("SandboxClock")
struct SandboxClockTests {
    @Test("moves from many threads at once all count; a move into the past is refused and changes nothing")
    func concurrentMovesAllCount() {
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let clock = SandboxClock(base: { start })
        // A move is read, changed and written back as one step: none is lost between threads.
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1_000 { clock.advance(by: 1) }
        }
        #expect(clock.skew == 8_000)
        // Sets race with advances: each lands at or after the time it asked for, never before it.
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for _ in 0..<500 {
                if index.isMultiple(of: 2) {
                    clock.advance(by: 1)
                } else {
                    let target = clock.now().addingTimeInterval(1)
                    if clock.set(to: target) { #expect(clock.now() >= target) }
                }
            }
        }
        #expect(clock.skew >= 10_000)
        let before = clock.skew
        #expect(!clock.set(to: start))
        #expect(clock.skew == before)
        #expect(clock.set(to: start.addingTimeInterval(before + 60)))
        #expect(clock.now() == start.addingTimeInterval(before + 60))
    }
}
