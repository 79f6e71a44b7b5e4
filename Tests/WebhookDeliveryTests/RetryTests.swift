import Foundation
import SandboxCore
import SandboxTestSupport
import Testing

/// The documented waits after the 1st, 2nd, … failed attempt (docs/webhooks.md), in seconds.
let retrySchedule: [Double] = [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400]

@Suite("Webhook retries on the sandbox clock")
struct RetryTests {
    @Test("500 for an hour of sandbox time, then 200: every event delivered once to a deduping application, same id on every attempt, attempts on the schedule, in order per payment")
    func failingHourThenSuccess() async throws {
        // The sandbox clock stands still but for the test's moves: no real time blurs the schedule.
        let start = Date()
        let host = try TestHost(dispatches: false, clock: .standingStill(at: start))
        defer { host.stop() }
        let receiver = try Receiver(answering: 500)
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)

        // Three payments: the first reversed (two events of one payment), a sample event too.
        let first = try await device.clearedSale(1000, "sale 1")
        let second = try await device.clearedSale(2000, "sale 2")
        expectReply(await device.reversal(second), 200, nil, "reverse sale 2")
        let third = try await device.clearedSale(3000, "sale 3")
        let sample = try await host.trigger("refund.succeeded", merchant: EU.merchant1)
        let logged = await host.events(merchant: EU.merchant1)
        #expect(logged.count == 5, "5 events expected in the log: \(logged)")
        let ids = logged.compactMap { $0["id"] as? String }
        let succeededOfSecond = try #require(
            logged.first { $0["transactionId"] as? String == second && $0["type"] as? String == "payment.succeeded" }?["id"] as? String)
        let canceledOfSecond = try #require(
            logged.first { $0["transactionId"] as? String == second && $0["type"] as? String == "payment.canceled" }?["id"] as? String)
        // Events that can go now: all but the reversal's, which waits for the sale's own event.
        let independent = ids.filter { $0 != canceledOfSecond }

        // Attempt 1 (at once), then 5 s, 5 min, 30 min of sandbox clock, all answered 500.
        var elapsed = 0.0
        for (index, wait) in [0.0, 5, 300, 1_800].enumerated() {
            if wait > 10 {
                // Not early: 60 s short of the wait, nothing is sent. The sandbox clock stands still
                // between the test's moves (it once ran with real time, and a loaded machine ate a
                // 60 s margin). The 5 s wait is too short for a margin.
                let short = Int(wait) - 60
                await host.advance(short)
                #expect(host.deliverDue() == 0, "something was due \(short) s into a \(Int(wait)) s wait")
                for id in independent {
                    let (_, attempts) = await host.state(of: id)
                    #expect(attempts == index, "event \(id) tried \(attempts) times \(short) s into a \(Int(wait)) s wait")
                }
                await host.advance(Int(wait) - short)
            } else if wait > 0 {
                await host.advance(Int(wait))
            }
            elapsed += wait
            for id in independent { await host.waitForAttempts(id, index + 1, "attempt \(index + 1) after \(Int(elapsed)) s") }
        }
        // The reversal's event has not been sent while the sale's own event was failing.
        #expect(
            receiver.attempts(of: canceledOfSecond).isEmpty,
            "payment.canceled of sale 2 was sent while its payment.succeeded was still pending: \(receiver.attempts(of: canceledOfSecond).count) times")
        let pending = await host.event(canceledOfSecond)
        #expect(pending.string("state") == "pending" && pending.int("attempts") == 0, "the reversal's event waits: \(pending)")

        // An hour of sandbox time has passed since the first attempt (2,105 s of waits + up to the
        // next one at 2 h); the receiver recovers, and the 2 h retry delivers.
        await host.advance(3_600 - Int(elapsed))
        receiver.answer(200)
        #expect(host.deliverDue() == 0, "something was due an hour in, before the 2 h retry")
        for id in independent {
            let (state, attempts) = await host.state(of: id)
            #expect(state == "pending" && attempts == 4, "event \(id) after an hour: \(state ?? "?"), \(attempts) attempts")
        }
        await host.advance(7_200 - (3_600 - Int(elapsed)))
        for id in ids { await host.waitForState(id, "delivered", "delivered after the receiver recovered") }

        // Every event reached the (deduping) application exactly once, and no 2xx was sent twice.
        let application = receiver.application
        #expect(Set(application.compactMap(\.eventId)) == Set(ids), "application got \(application.compactMap(\.eventId)), log has \(ids)")
        #expect(application.count == ids.count)
        #expect(receiver.received.filter(\.delivered).count == ids.count, "an event was delivered (2xx) more than once")

        for id in ids {
            let attempts = receiver.attempts(of: id)
            let detail = await host.event(id)
            let log = attemptLog(detail)
            // Same id and the very same bytes on every attempt; as many requests as logged attempts.
            #expect(Set(attempts.map(\.body)).count == 1, "event \(id): the body changed between attempts")
            #expect(attempts.count == log.count, "event \(id): \(attempts.count) requests, \(log.count) logged attempts: \(detail)")
            #expect(log.map(\.attempt) == Array(1...max(log.count, 1)), "event \(id): attempt numbers \(log.map(\.attempt))")
            if id == canceledOfSecond {
                #expect(log.map(\.status) == [200], "the reversal's event: one attempt once its sale's event was delivered: \(detail)")
                continue
            }
            #expect(log.map(\.status) == [500, 500, 500, 500, 200], "event \(id): statuses \(log.map(\.status))")
            // The waits between attempts follow the schedule (whole seconds on the wire).
            let times = log.compactMap(\.at)
            #expect(times.count == log.count, "event \(id): attempt times \(detail)")
            for index in 1..<times.count {
                let gap = times[index].timeIntervalSince(times[index - 1])
                let wanted = retrySchedule[index - 1]
                #expect(
                    // Never early; late by at most a minute (a loaded machine runs the dispatcher late, never the schedule wrong).
                    gap >= wanted - 1 && gap <= wanted + 60,
                    "event \(id): attempt \(index + 1) came \(gap) s after attempt \(index), the schedule says \(wanted) s")
            }
        }

        // Per payment, in order, even while retrying: sale 2's payment.canceled arrived (at all)
        // only after its payment.succeeded was delivered.
        let firstCanceled = try #require(receiver.received.firstIndex { $0.eventId == canceledOfSecond })
        let succeededDelivered = try #require(receiver.received.firstIndex { $0.eventId == succeededOfSecond && $0.delivered })
        #expect(succeededDelivered < firstCanceled, "sale 2's payment.canceled arrived before its payment.succeeded was delivered")
        let appOrder = application.filter { $0.paymentId == second }.map { $0.type ?? "?" }
        #expect(appOrder == ["payment.succeeded", "payment.canceled"], "sale 2's events reached the application as \(appOrder)")
        _ = (first, third, sample)
    }

    @Test("a receiver that never answers 2xx gets 10 attempts (at once, then the 9 waits up to 24 h), then the event is failed")
    func givesUpAfterTheSchedule() async throws {
        let host = try TestHost(dispatches: false)
        defer { host.stop() }
        let receiver = try Receiver(answering: 500)
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        let id = try await host.trigger("payment.succeeded", merchant: EU.merchant1)
        await host.waitForAttempts(id, 1, "first attempt")
        for (index, wait) in retrySchedule.enumerated() {
            await host.advance(Int(wait))
            await host.waitForAttempts(id, index + 2, "attempt \(index + 2) after a \(Int(wait)) s wait")
        }
        let detail = await host.waitForState(id, "failed", "failed after the last retry")
        #expect(detail.int("attempts") == 10, "\(detail)")
        await host.advance(200_000)
        #expect(host.deliverDue() == 0, "a failed event was due again")
        #expect(receiver.attempts(of: id).count == 10, "a failed event was tried again: \(receiver.attempts(of: id).count) requests")
    }
}
