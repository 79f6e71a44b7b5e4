import EnvironmentHost
import Foundation
import SandboxCore
import SandboxHTTP
import Testing
import SandboxTestSupport

/// `/_sandbox/clock`: testers move a host's time instead of waiting.
@Suite struct SandboxClockRouteTests {
    let folder = TemporaryDirectory()

    func host(clock: SandboxClock) throws -> EnvironmentHost {
        try EnvironmentHostTests.host("EU", clock: clock, in: folder.url)
    }

    func post(_ host: EnvironmentHost, _ body: String) -> Response {
        host.respond(
            to: Request(
                method: "POST", path: "/_sandbox/clock", headers: ["content-type": "application/json"], body: Array(body.utf8)))
    }

    func json(_ response: Response) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    @Test func advancesSetsAndRefusesThePast() throws {
        let clock = SandboxClock(base: { Date(timeIntervalSince1970: 1_790_000_000) })
        let host = try host(clock: clock)
        let advanced = post(host, #"{"advanceSeconds": 90.5}"#)
        #expect(advanced.status == 200)
        #expect(json(advanced)["skewSeconds"] as? Double == 90.5)
        #expect(clock.now() == Date(timeIntervalSince1970: 1_790_000_090.5))

        let set = post(host, #"{"set": "2026-09-21T18:00:00.250Z"}"#)
        #expect(set.status == 200)
        #expect(clock.now() == Date(timeIntervalSince1970: 1_790_013_600.25))
        #expect(json(set)["now"] as? String == "2026-09-21T18:00:00Z")

        for body in [#"{"set": "2026-01-01T00:00:00Z"}"#, #"{"advanceSeconds": -1}"#, #"{}"#,
                     #"{"advanceSeconds": 1, "set": "2027-01-01T00:00:00Z"}"#, #"{"set": "tomorrow"}"#] {
            let refused = post(host, body)
            #expect(refused.status == 400, "\(body)")
            #expect((json(refused)["error"] as? [String: Any])?["code"] as? String == "invalid_request", "\(body)")
        }
        #expect(clock.now() == Date(timeIntervalSince1970: 1_790_013_600.25))
        let read = host.respond(to: Request(method: "GET", path: "/_sandbox/clock"))
        #expect(json(read)["now"] as? String == "2026-09-21T18:00:00Z")
    }

    @Test("a restarted host goes on from its moved clock, never back; realTime: true is the one way back, and it is kept too")
    func theOffsetOutlivesARestart() throws {
        let base: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_790_000_000) }
        let first = try host(clock: SandboxClock(base: base))
        #expect(post(first, #"{"advanceSeconds": 60}"#).status == 200)
        first.stop()
        let restartedClock = SandboxClock(base: base)
        let restarted = try host(clock: restartedClock)
        #expect(restartedClock.skew == 60, "the restart moved the clock back to real time")
        #expect(json(restarted.respond(to: Request(method: "GET", path: "/_sandbox/clock")))["skewSeconds"] as? Double == 60)

        for body in [#"{"realTime": false}"#, #"{"realTime": true, "advanceSeconds": 1}"#] {
            #expect(post(restarted, body).status == 400, "\(body)")
        }
        let back = post(restarted, #"{"realTime": true}"#)
        #expect(back.status == 200 && json(back)["skewSeconds"] as? Double == 0, "\(json(back))")
        restarted.stop()
        let again = SandboxClock(base: base)
        _ = try host(clock: again)
        #expect(again.skew == 0, "back to real time is kept across a restart too")
    }
}
