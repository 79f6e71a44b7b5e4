import Foundation
import SandboxTestSupport
import Testing

@Suite("Webhook answers: 410 disables, 429 and 503 honour Retry-After")
struct StatusRuleTests {
    @Test("410 disables the merchant's endpoint: later events are disabled and never sent; saving the settings again re-enables it")
    func goneDisables() async throws {
        let host = try TestHost(dispatches: false)
        defer { host.stop() }
        let receiver = try Receiver(answering: 410)
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        let gone = try await host.trigger("payment.succeeded", merchant: EU.merchant1)
        await host.waitForState(gone, "disabled", "the event answered 410")
        #expect(receiver.attempts(of: gone).count == 1, "a 410 was tried again")
        let settings = await host.webhookSettings(EU.merchant1)
        #expect(settings.bool("disabled") == true, "the endpoint is not disabled after a 410: \(settings)")

        // Later events are written disabled and never reach the receiver, whatever the clock does.
        receiver.answer(200)
        let later = try await host.trigger("payment.failed", merchant: EU.merchant1)
        let detail = await host.event(later)
        #expect(detail.string("state") == "disabled", "an event for a disabled endpoint: \(detail)")
        await host.advance(90_000)
        #expect(host.deliverDue() == 0, "a pass found something to send")
        #expect(receiver.attempts(of: later).isEmpty, "an event of a disabled endpoint was sent")
        // Another merchant is not affected.
        let otherReceiver = try Receiver(answering: 200)
        await host.setWebhook(EU.merchant2, url: otherReceiver.hookURL)
        let other = try await host.trigger("payment.succeeded", merchant: EU.merchant2)
        await host.waitForState(other, "delivered", "another merchant's event")
        #expect(otherReceiver.deliveredIds == [other])

        // Saving the settings turns the endpoint back on: new events are delivered.
        let saved = await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        #expect(saved.bool("disabled") == false, "saving did not re-enable: \(saved)")
        let again = try await host.trigger("payment.succeeded", merchant: EU.merchant1)
        await host.waitForState(again, "delivered", "an event after re-enabling")
        #expect(receiver.attempts(of: again).count == 1)
    }

    @Test("410 on events pending for the endpoint: they are disabled too, not retried")
    func gonePendingAlsoDisabled() async throws {
        let host = try TestHost(dispatches: false)
        defer { host.stop() }
        let receiver = try Receiver(answering: 500)
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        let first = try await host.trigger("payment.succeeded", merchant: EU.merchant1)
        let second = try await host.trigger("payment.failed", merchant: EU.merchant1)
        await host.waitForAttempts(first, 1, "first attempt (500)")
        await host.waitForAttempts(second, 1, "first attempt (500)")
        receiver.answer(410)
        await host.advance(5)
        // Whichever was tried first answered 410; both end disabled and nothing more is sent.
        await host.waitForState(first, "disabled", "after a 410")
        await host.waitForState(second, "disabled", "after a 410")
        let before = receiver.received.count
        await host.advance(100_000)
        #expect(host.deliverDue() == 0, "a pass found disabled events to send")
        #expect(receiver.received.count == before, "disabled events were sent again")
    }

    @Test("429 with Retry-After: 120 waits 120 s of sandbox clock (not the 5 s of the schedule)", arguments: [429, 503])
    func retryAfter(status: Int) async throws {
        let host = try TestHost(dispatches: false)
        defer { host.stop() }
        let receiver = try Receiver(answering: status)
        receiver.answer(status, retryAfter: "120")
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        let id = try await host.trigger("payment.succeeded", merchant: EU.merchant1)
        let first = await host.waitForAttempts(id, 1, "first attempt (\(status))")
        let firstAt = try #require(attemptLog(first).first?.at, "\(first)")
        if let next = parseTime(first["nextAttemptAt"]) {
            let wait = next.timeIntervalSince(firstAt)
            #expect(wait >= 119 && wait <= 121, "\(status) Retry-After 120: next attempt planned \(wait) s later: \(first)")
        } else {
            Issue.record("no nextAttemptAt after a \(status): \(first)")
        }
        // 6 s (past the schedule's first wait of 5 s) and even 119 s after the first attempt: not yet.
        await host.moveClock(to: firstAt.addingTimeInterval(6))
        #expect(host.deliverDue() == 0, "\(status) with Retry-After 120 was due again after 6 s")
        #expect(receiver.attempts(of: id).count == 1, "\(status) with Retry-After 120 was retried after 6 s")
        await host.moveClock(to: firstAt.addingTimeInterval(119))
        #expect(host.deliverDue() == 0, "\(status) with Retry-After 120 was due again after 119 s")
        #expect(receiver.attempts(of: id).count == 1, "\(status) with Retry-After 120 was retried after 119 s")
        receiver.answer(200)
        await host.moveClock(to: firstAt.addingTimeInterval(121))
        let detail = await host.waitForState(id, "delivered", "delivered after Retry-After")
        let log = attemptLog(detail)
        #expect(log.map(\.status) == [status, 200], "\(detail)")
        if log.count == 2, let a = log[0].at, let b = log[1].at {
            let gap = b.timeIntervalSince(a)
            #expect(gap >= 119 && gap <= 135, "\(status): the retry came \(gap) s after, Retry-After said 120")
        }
    }

    @Test("Retry-After 0, -1 or 1 never shortens the schedule's wait, and after the schedule's ten attempts the event fails",
          arguments: ["0", "-1", "1"])
    func retryAfterNeverShortens(asked: String) async throws {
        let host = try TestHost(dispatches: false)
        defer { host.stop() }
        let receiver = try Receiver(answering: 429)
        receiver.answer(429, retryAfter: asked)
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        let id = try await host.trigger("payment.succeeded", merchant: EU.merchant1)
        let first = await host.waitForAttempts(id, 1, "first attempt (429, Retry-After: \(asked))")
        let firstAt = try #require(attemptLog(first).first?.at, "\(first)")
        // Within the schedule's first 5 s: a pass sends nothing, whatever Retry-After said.
        await host.moveClock(to: firstAt.addingTimeInterval(4))
        #expect(host.deliverDue() == 0, "Retry-After: \(asked) made the retry due before the schedule's 5 s")
        #expect(receiver.attempts(of: id).count == 1)
        // Through the whole schedule (a day at a time): ten attempts, then failed, then no more.
        for _ in 0..<12 {
            await host.advance(86_400)
            _ = host.deliverDue()
        }
        #expect(receiver.attempts(of: id).count == 10, "Retry-After: \(asked): \(receiver.attempts(of: id).count) attempts")
        let detail = await host.waitForState(id, "failed", "failed after the schedule")
        #expect(attemptLog(detail).count == 10)
    }

    @Test("429 and 503 without Retry-After fall back to the schedule (5 s)")
    func retryAfterMissing() async throws {
        let host = try TestHost()
        defer { host.stop() }
        let receiver = try Receiver(answering: 429)
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        let id = try await host.trigger("payment.succeeded", merchant: EU.merchant1)
        await host.waitForAttempts(id, 1, "first attempt (429, no Retry-After)")
        receiver.answer(503)
        await host.advance(5)
        await host.waitForAttempts(id, 2, "second attempt 5 s later (503, no Retry-After)")
        receiver.answer(200)
        await host.advance(300)
        await host.waitForState(id, "delivered", "third attempt 5 min later")
    }

    @Test("410 from a payment's callbackUrl disables that delivery only; the merchant's endpoint stays on")
    func goneAtCallbackOnly() async throws {
        let host = try TestHost()
        defer { host.stop() }
        let merchantReceiver = try Receiver(answering: 200)
        let callbackReceiver = try Receiver(answering: 410)
        await host.setWebhook(EU.merchant1, url: merchantReceiver.hookURL)
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)
        let sale = try await device.clearedSale(1000, callbackUrl: callbackReceiver.callbackURL, "sale with a callbackUrl that answers 410")
        let event = try #require(await host.events().first { $0["transactionId"] as? String == sale }?["id"] as? String)
        await host.waitForState(event, "disabled", "the callbackUrl answered 410")
        let settings = await host.webhookSettings(EU.merchant1)
        #expect(settings.bool("disabled") == false, "a callbackUrl's 410 disabled the merchant's endpoint: \(settings)")
        let later = try await device.clearedSale(1100, "a sale without callbackUrl")
        #expect(await eventually(60) { merchantReceiver.application.contains { $0.paymentId == later } }, "the merchant's endpoint got nothing")
    }
}
