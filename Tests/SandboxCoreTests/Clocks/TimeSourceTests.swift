import SandboxTime
import Foundation
import SandboxCore
import Testing

@Suite("TimeSource")
struct TimeSourceTests {
    @Test("now in milliseconds is rounded down, as the hosts store times: 0.9996 s past a second is still that second's 999th ms")
    func millisecondsRoundDown() {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_790_000_000.9996))
        #expect(clock.nowMilliseconds() == 1_790_000_000_999)
        let sandbox = SandboxClock(base: { Date(timeIntervalSince1970: 1_790_000_000) })
        sandbox.advance(by: 600.0004)
        #expect(sandbox.nowMilliseconds() == 1_790_000_600_000)
        #expect(Date(timeIntervalSince1970: -0.0004).millisecondsSince1970 == -1)
    }
}
