import Foundation
import HostTestSupport
import Launcher
import SandboxHTTP
import SandboxTestSupport
import Testing

@Suite("sandbox up: the webhook inbox")
struct InboxTests {
    @Test("the inbox gets every merchant's events by default and finds the MONEI signature valid, also after the host's clock moved three months")
    func inboxAfterClockMove() async throws {
        let running = try InProcessSandbox(drainSeconds: 0.1, regions: ["EU"])
        defer { running.stop() }
        let sandbox = running.sandbox
        let eu = try #require(sandbox.hosts.first { $0.name == EU.region })
        let host = Service(baseURL: eu.url)
        let inbox = Service(baseURL: sandbox.inbox.url)

        func delivery(_ eventId: String) async -> [String: Any]? {
            var found: [String: Any]?
            _ = await eventually(60) {
                found = await inbox.call("GET", "/api/events").objects("events").first { $0["eventId"] as? String == eventId }
                return found != nil
            }
            return found
        }
        let before = try #require(
            expectReply(
                await host.call("POST", "/_sandbox/webhooks/trigger", body: ["event": "payment.succeeded", "merchantId": EU.merchant1]), 202,
                nil, "trigger"
            ).string("eventId"))
        let first = await delivery(before)
        #expect(first?["signature"] as? String == "valid", "the inbox's verdict: \(first ?? [:])")

        expectReply(
            await host.call("POST", "/_sandbox/clock", body: ["advanceSeconds": SignatureTimeTests.threeMonths]), 200, nil,
            "move EU's clock three months")
        let after = try #require(
            expectReply(
                await host.call("POST", "/_sandbox/webhooks/trigger", body: ["event": "payment.succeeded", "merchantId": EU.merchant1]), 202,
                nil, "trigger after the clock moved"
            ).string("eventId"))
        let second = await delivery(after)
        #expect(second != nil, "the event did not reach the inbox")
        #expect(
            second?["signature"] as? String == "valid",
            "after POST /_sandbox/clock on EU the signature (dated in real time) must still verify: \(second?["signature"] ?? "none")")
    }
}
