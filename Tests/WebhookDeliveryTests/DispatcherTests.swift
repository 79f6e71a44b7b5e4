import Foundation
import SandboxTestSupport
import Testing

@Suite("The dispatcher: bounded concurrency, 15 s timeout")
struct DispatcherTests {
    @Test("one endpoint's backlog takes at most 12 of the 16 slots: another merchant's events go out beside it at once")
    func eachEndpointGetsItsShare() async throws {
        let host = try TestHost(dispatches: false)
        defer { host.stop() }
        let slow = try Receiver(answering: 200)
        defer { slow.stop() }
        slow.answer(200, delay: .seconds(2))
        let fast = try Receiver(answering: 200)
        await host.setWebhook(EU.merchant1, url: slow.hookURL)
        await host.setWebhook(EU.merchant2, url: fast.hookURL)
        for _ in 0..<40 { _ = try await host.trigger("payment.succeeded", merchant: EU.merchant1) }
        var others: [String] = []
        for _ in 0..<8 { others.append(try await host.trigger("payment.succeeded", merchant: EU.merchant2)) }
        host.stop()
        // The same database, dispatching now: 48 events due at once, the slow endpoint's 40 first.
        let running = try TestHost(directory: host.directory)
        defer { running.stop() }
        #expect(await eventually(30) { Set(fast.deliveredIds).isSuperset(of: others) }, "EU-M02 got \(fast.deliveredIds.count) of 8")
        // Had the backlog taken every slot, EU-M02's events would have waited for 16 of its 2 s answers.
        #expect(slow.received.count <= 12, "EU-M02's events waited for \(slow.received.count) of EU-M01's deliveries")
        #expect(slow.maxInFlight <= 12, "\(slow.maxInFlight) deliveries at once to one endpoint")
    }

    @Test("many due events to a slow receiver are sent concurrently, never more than 12 at once to one endpoint")
    func boundedConcurrency() async throws {
        let host = try TestHost(dispatches: false)
        defer { host.stop() }
        let receiver = try Receiver(answering: 200)
        receiver.answer(200, delay: .milliseconds(300))
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        var ids: [String] = []
        for _ in 0..<48 { ids.append(try await host.trigger("payment.succeeded", merchant: EU.merchant1)) }
        host.stop()
        // The same database, dispatching now: 48 events due at once.
        let running = try TestHost(directory: host.directory)
        defer { running.stop() }
        let started = Date()
        #expect(await eventually(30) { receiver.deliveredIds.count == ids.count }, "delivered \(receiver.deliveredIds.count) of \(ids.count)")
        let took = Date().timeIntervalSince(started)
        print("webhook concurrency test: at most \(receiver.maxInFlight) deliveries at once, 48 × 300 ms in \(String(format: "%.2f", took)) s")
        // Deliveries overlap, and one endpoint has at most 12 of the 16 slots in flight (4 stay free).
        #expect(receiver.maxInFlight > 1, "deliveries were sent one at a time (48 × 300 ms took \(took) s)")
        #expect(receiver.maxInFlight <= 12, "\(receiver.maxInFlight) deliveries at once to one endpoint; docs/webhooks.md says up to 12")
    }

    @Test("a receiver that does not answer within 15 s: the attempt fails as a timeout and is retried")
    func timeout() async throws {
        let host = try TestHost()
        defer { host.stop() }
        let slow = try Receiver(answering: 200)
        defer { slow.stop() }
        slow.answer(200, delay: .seconds(16))
        await host.setWebhook(EU.merchant1, url: slow.hookURL)
        let id = try await host.trigger("payment.succeeded", merchant: EU.merchant1)
        #expect(await eventually(15) { !slow.received.isEmpty }, "the first attempt did not arrive")
        // Only the first request hangs; the retry is answered at once. The host's clock stands
        // still: once the attempt has failed, moving it 10 s makes the retry (due 5 s on) fall due.
        slow.answer(200)
        await host.waitForAttempts(id, 1, seconds: 60, "the first attempt given up")  // the attempt gives up 15 s after it began
        await host.advance(10)
        let detail = await host.waitForState(id, "delivered", seconds: 30, "delivered on the retry after a timeout")
        let log = attemptLog(detail)
        #expect(log.map(\.status) == [nil, 200], "a timed-out attempt has no status, the retry 200: \(detail)")
        let first = try #require(log.first, "\(detail)")
        #expect((first.entry["error"] as? String)?.isEmpty == false, "a timed-out attempt names its error: \(first.entry)")
        let latency = (first.entry["latencyMs"] as? NSNumber)?.doubleValue ?? 0
        #expect(latency >= 14_500 && latency <= 15_900, "the attempt gave up after \(latency) ms, not 15 s")
        if log.count == 2, let a = log[0].at, let b = log[1].at {
            #expect(b.timeIntervalSince(a) >= 4, "the retry came \(b.timeIntervalSince(a)) s after the first attempt began")
        }
    }

    @Test("a receiver that hangs does not hold up another merchant's deliveries")
    func slowReceiverDoesNotBlockOthers() async throws {
        let host = try TestHost()
        defer { host.stop() }
        let slow = try Receiver(answering: 200)
        defer { slow.stop() }
        slow.answer(200, delay: .seconds(16))
        let fast = try Receiver(answering: 200)
        await host.setWebhook(EU.merchant1, url: slow.hookURL)
        await host.setWebhook(EU.merchant2, url: fast.hookURL)
        _ = try await host.trigger("payment.succeeded", merchant: EU.merchant1)
        #expect(await eventually(15) { !slow.received.isEmpty }, "the slow receiver got nothing")
        slow.answer(200)  // only the first request hangs
        let sent = Date()
        let other = try await host.trigger("payment.succeeded", merchant: EU.merchant2)
        // Well before the slow receiver answers (16 s): a dispatcher that waited for it would miss this.
        let prompt = await eventually(10) { fast.deliveredIds.contains(other) }
        let waited = await eventually(20) { fast.deliveredIds.contains(other) }
        #expect(
            prompt,
            "EU-M02's event waited \(waited ? String(format: "%.1f", Date().timeIntervalSince(sent)) : "more than 20") s for EU-M01's hanging receiver (the dispatcher waits for its whole batch)")
    }
}
