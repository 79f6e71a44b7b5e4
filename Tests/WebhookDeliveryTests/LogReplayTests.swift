import Foundation
import SandboxTestSupport
import Testing

@Suite("Webhook delivery log and replay (back office)")
struct LogReplayTests {
    @Test("the log lists events and shows each attempt with status, latency and the receiver's answer; replay sends the same event again")
    func logAndReplay() async throws {
        let host = try TestHost()
        defer { host.stop() }
        // 503 with an hour's Retry-After: the retry comes only when the test moves the sandbox clock,
        // however long a loaded machine takes between the steps.
        let receiver = try Receiver(answering: 503)
        receiver.answer(503, retryAfter: "3600", body: "receiver is down for maintenance")
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)
        let sale = try await device.clearedSale(1000, "sale")

        let listed = await host.events(merchant: EU.merchant1)
        let entry = try #require(listed.first { $0["transactionId"] as? String == sale }, "the sale's event is not in the log: \(listed)")
        let id = try #require(entry["id"] as? String)
        #expect(entry["type"] as? String == "payment.succeeded", "\(entry)")
        #expect(entry["merchantId"] as? String == EU.merchant1 && entry["url"] as? String == receiver.hookURL, "\(entry)")
        #expect(entry["scheme"] as? String == "monei", "\(entry)")
        #expect(entry["payload"] == nil && entry["log"] == nil, "the list carries no payload or log: \(entry)")
        // The other merchant's filter leaves it out.
        let others = await host.events(merchant: EU.merchant2)
        #expect(!others.contains { $0["id"] as? String == id }, "merchantId filter: \(others)")

        await host.waitForAttempts(id, 1, "first attempt (503)")
        receiver.answer(200, body: "thanks, got it")
        await host.advance(3_605)
        let detail = await host.waitForState(id, "delivered", "delivered on the second attempt")
        #expect(detail.int("attempts") == 2, "\(detail)")
        #expect(parseTime(detail["deliveredAt"]) != nil, "no deliveredAt: \(detail)")
        // The payload is the exact body the receiver got.
        let received = receiver.attempts(of: id)
        #expect(received.count == 2)
        #expect(detail.string("payload") == received.first.map { String(decoding: $0.body, as: UTF8.self) }, "payload ≠ the body sent: \(detail)")
        let log = attemptLog(detail)
        #expect(log.map(\.attempt) == [1, 2] && log.map(\.status) == [503, 200], "\(detail)")
        if log.count == 2 {
            #expect(log[0].entry["responseExcerpt"] as? String == "receiver is down for maintenance", "excerpt: \(log[0].entry)")
            #expect(log[1].entry["responseExcerpt"] as? String == "thanks, got it", "excerpt: \(log[1].entry)")
            for attempt in log {
                let latency = (attempt.entry["latencyMs"] as? NSNumber)?.doubleValue ?? -1
                #expect(latency >= 0 && latency < 15_000, "latencyMs \(latency): \(attempt.entry)")
                #expect(attempt.at != nil, "attempt time: \(attempt.entry)")
            }
        }

        // Replay: 202, the same event id and bytes again, one more attempt in the log.
        let replayed = expectReply(await host.replay(id), 202, nil, "replay")
        #expect(replayed.string("eventId") == id, "\(replayed)")
        #expect(await eventually(60) { receiver.attempts(of: id).count == 3 }, "replay did not re-deliver: \(receiver.attempts(of: id).count)")
        let again = await host.waitForState(id, "delivered", "delivered again after replay")
        #expect(attemptLog(again).map(\.status) == [503, 200, 200], "\(again)")
        let bodies = Set(receiver.attempts(of: id).map(\.body))
        #expect(bodies.count == 1, "the replay sent another body")
        #expect(receiver.attempts(of: id).last?.eventId == id)
        // A deduping application saw it once.
        #expect(receiver.application.filter { $0.eventId == id }.count == 1)

        // Unknown ids and missing credentials.
        expectReply(await host.event("evt_000000000000000000000000"), 404, "webhook_event_not_found", "unknown event")
        expectReply(await host.replay("evt_000000000000000000000000"), 404, "webhook_event_not_found", "replay of an unknown event")
        expectReply(await host.api.call("GET", "/backoffice/v1/webhooks/events"), 401, nil, "the log without the back-office key")
        expectReply(await host.api.call("POST", "/backoffice/v1/webhooks/events/\(id)/replay"), 401, nil, "replay without the key")
    }

    @Test("replay of a failed event (past its last retry) delivers it")
    func replayFailed() async throws {
        let host = try TestHost()
        defer { host.stop() }
        let receiver = try Receiver(answering: 500)
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        let id = try await host.trigger("refund.failed", merchant: EU.merchant1)
        await host.waitForAttempts(id, 1, "first attempt")
        for (index, wait) in retrySchedule.enumerated() {
            await host.advance(Int(wait))
            await host.waitForAttempts(id, index + 2, "attempt \(index + 2)")
        }
        await host.waitForState(id, "failed", "failed after the schedule")
        receiver.answer(200)
        expectReply(await host.replay(id), 202, nil, "replay a failed event")
        await host.waitForState(id, "delivered", "a replayed failed event")
        #expect(receiver.application.map(\.eventId) == [id])
    }
}
