import Foundation
import SandboxTestSupport
import Testing

@Suite("Pending webhook deliveries survive a restart of the host")
struct RestartTests {
    @Test("events pending while the receiver is down are delivered, with their ids, by a new host on the same data directory")
    func resumeAfterStop() async throws {
        let directory = TemporaryDirectory()
        // A port nobody listens on yet: every attempt fails to connect.
        let receiver = try Receiver(answering: 200, started: false)
        var host = try TestHost(directory: directory)
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)
        var sales: [String] = []
        for amount in [1000, 1100, 1200] { sales.append(try await device.clearedSale(amount, "sale \(amount)")) }
        let sample = try await host.trigger("refund.succeeded", merchant: EU.merchant1)
        let logged = await host.events(merchant: EU.merchant1)
        let ids = Set(logged.compactMap { $0["id"] as? String })
        #expect(ids.count == 4, "\(logged)")
        for id in ids {
            let detail = await host.waitForAttempts(id, 1, "a first attempt to the receiver that is down")
            #expect(detail.string("state") == "pending", "\(detail)")
            #expect(attemptLog(detail).first?.status == nil, "an attempt to a closed port has no status: \(detail)")
            #expect(attemptLog(detail).first?.entry["error"] as? String != nil, "the attempt names its error: \(detail)")
        }
        host.stop()

        // A new host process-equivalent on the same database; the receiver comes up.
        host = try TestHost(directory: directory)
        defer { host.stop() }
        try receiver.start()
        // Past the 5 s retry, and past the 5 min one too: on a loaded machine more than 5 s of real
        // time can pass before the receiver is up, so a second attempt may already have failed.
        await host.advance(310)
        for id in ids { await host.waitForState(id, "delivered", "delivered by the restarted host") }
        #expect(receiver.deliveredIds == ids, "delivered \(receiver.deliveredIds.sorted()), pending before: \(ids.sorted())")
        #expect(receiver.application.count == ids.count)
        let payments = Set(receiver.application.compactMap(\.paymentId))
        #expect(payments.isSuperset(of: sales), "sales delivered: \(payments)")
        #expect(receiver.application.contains { $0.eventId == sample })
    }

    @Test("events a host wrote without dispatching (dispatcher off) are sent at once by the next host")
    func resumeNeverTried() async throws {
        let directory = TemporaryDirectory()
        let receiver = try Receiver(answering: 200)
        var host = try TestHost(directory: directory, dispatches: false)
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        var ids: [String] = []
        for _ in 0..<5 { ids.append(try await host.trigger("payment.succeeded", merchant: EU.merchant1)) }
        // Its dispatcher never started: the events wait, untried, in the log.
        for id in ids {
            let (state, attempts) = await host.state(of: id)
            #expect(state == "pending" && attempts == 0, "event \(id) of a host with dispatching off: \(state ?? "?"), \(attempts) attempts")
        }
        #expect(receiver.received.isEmpty, "a host with dispatching off sent webhooks")
        host.stop()
        host = try TestHost(directory: directory)
        defer { host.stop() }
        for id in ids { await host.waitForState(id, "delivered", "sent by the next host") }
        #expect(receiver.application.compactMap(\.eventId).sorted() == ids.sorted())
    }
}
