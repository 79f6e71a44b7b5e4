import Foundation
import Synchronization
import SandboxTestSupport
import Testing

/// A real `sandbox-host` process (TestSupport's `SandboxHostProcess`) and the API it serves.
final class HostProcess: @unchecked Sendable {
    let host: SandboxHostProcess
    var api: Service { Service(baseURL: host.url) }

    init(dataDirectory: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        host = try SandboxHostProcess(dataDirectory: dataDirectory, sourceLocation: sourceLocation)
    }

    var stderr: String { host.output }

    /// Waits until `/healthz` answers 200.
    func waitUntilReady(seconds: Double = 20) async -> Bool {
        await eventually(seconds) {
            guard host.child.process.isRunning else { return false }
            return await api.call("GET", "/healthz").status == 200
        }
    }

    /// SIGKILL, and waits for the process to be gone.
    func kill() { host.kill() }
}

@Suite("SIGKILL of the host mid-dispatch loses no webhook", .blocksThreads)
struct CrashTests {
    @Test("sales over HTTP, SIGKILL while a delivery waits for its answer, restart on the same data: every committed sale's event arrives, the unanswered one is sent again, ids stable")
    func sigkillMidDispatch() async throws {
        let data = TemporaryDirectory()
        let receiver = try Receiver(answering: 200)
        receiver.answer(200, delay: .milliseconds(50))
        let backOfficeKey = try EU.fixture().backOfficeKey

        let first = try HostProcess(dataDirectory: data.url)
        #expect(await first.waitUntilReady(), "sandbox-host did not start: \(first.stderr)")
        expectReply(
            await first.api.call(
                "PUT", "/backoffice/v1/merchants/\(EU.merchant1)/webhook", bearer: backOfficeKey,
                body: ["url": receiver.hookURL, "scheme": "monei"]), 200, nil, "point EU-M01 at the receiver")
        let device = try await Device.open(first.api, backOfficeKey: backOfficeKey, terminal: EU.terminal1)

        // Sales back to back in the background; the kill comes while they and the deliveries run.
        let run = SalesRun()
        let sales = Task {
            for index in 0..<1_000 where !run.stop.load(ordering: .relaxed) {
                // Whole euros: no magic amount (a PIN step or a late issuer would leave the sale in flight).
                guard let reply = try? await device.sale(1000 + 100 * (index % 50), quietly: true) else { break }
                guard reply.status == 201, reply.string("transactionStatus") == "CLEARED", let id = reply.string("transactionId") else { break }
                run.committed.withLock { $0.append(id) }
            }
        }
        // Let deliveries flow, then make the receiver hold its next answers for 3 s and kill the host
        // while it waits for one: that event was sent but never acknowledged to the host.
        let flowing = await eventually(180) { receiver.received.count >= 15 && run.count >= 25 }
        #expect(flowing, "deliveries did not start: \(receiver.received.count) received, \(run.count) sales")
        receiver.answer(200, delay: .seconds(3))
        let before = receiver.received.count  // every request after this one is held
        let holding = await eventually(20) { receiver.received.count > before && receiver.inFlight > 0 }
        #expect(holding, "no delivery arrived after the receiver began holding its answers")
        let unacknowledged = Set(receiver.received.dropFirst(before).compactMap(\.eventId))
        first.kill()
        receiver.answer(200, delay: .milliseconds(50))
        run.stop.store(true, ordering: .relaxed)
        _ = await sales.value
        let sold = run.committed.withLock { $0 }
        let arrivedBeforeKill = receiver.received.count
        #expect(!unacknowledged.isEmpty, "no event was in flight at the kill")

        // The same data directory, a new process: the outbox resumes.
        let second = try HostProcess(dataDirectory: data.url)
        defer { second.kill() }
        #expect(await second.waitUntilReady(), "sandbox-host did not restart: \(second.stderr)")
        let allArrived = await eventually(40) {
            let delivered = Set(receiver.received.filter { $0.delivered && $0.type == "payment.succeeded" }.compactMap(\.paymentId))
            return delivered.isSuperset(of: sold)
        }
        let deliveredPayments = Set(receiver.received.filter(\.delivered).compactMap(\.paymentId))
        #expect(allArrived, "lost: \(Set(sold).subtracting(deliveredPayments).count) of \(sold.count) committed sales never got their event")

        // One event id per payment, kept across attempts and the restart; repeats are the same bytes.
        var idsByPayment: [String: Set<String>] = [:]
        var bodiesById: [String: Set<[UInt8]>] = [:]
        for request in receiver.received {
            guard let id = request.eventId, let payment = request.paymentId else {
                Issue.record("a delivery without event id or paymentId: \(String(decoding: request.body, as: UTF8.self))")
                continue
            }
            idsByPayment[payment, default: []].insert(id)
            bodiesById[id, default: []].insert(request.body)
        }
        for (payment, ids) in idsByPayment where ids.count != 1 {
            Issue.record("payment \(payment) arrived under \(ids.count) event ids: \(ids.sorted())")
        }
        for (id, bodies) in bodiesById where bodies.count != 1 {
            Issue.record("event \(id) arrived with \(bodies.count) different bodies")
        }
        // The log of the restarted host agrees: every event of the merchant delivered.
        let logged = expectReply(
            await second.api.call("GET", "/backoffice/v1/webhooks/events?limit=500&merchantId=\(EU.merchant1)", bearer: backOfficeKey), 200, nil,
            "the delivery log after the restart"
        ).objects("events")
        let settled = await eventually(60) {
            let events = await second.api.call(
                "GET", "/backoffice/v1/webhooks/events?limit=500&merchantId=\(EU.merchant1)", bearer: backOfficeKey
            ).objects("events")
            return events.allSatisfy { $0["state"] as? String == "delivered" }
        }
        #expect(settled, "not every event is delivered in the log: \(logged.filter { $0["state"] as? String != "delivered" })")
        let loggedPayments = Set(logged.compactMap { $0["transactionId"] as? String })
        #expect(loggedPayments.isSuperset(of: sold), "committed sales without an event in the outbox: \(Set(sold).subtracting(loggedPayments))")
        // An event in flight at the kill was never acknowledged to the host: it is sent again.
        let attempts = Dictionary(grouping: receiver.received.compactMap(\.eventId), by: { $0 }).mapValues(\.count)
        for id in unacknowledged {
            #expect((attempts[id] ?? 0) >= 2, "event \(id) was in flight at the kill and was not sent again after the restart")
        }
        let repeats = receiver.received.count - Set(receiver.received.compactMap(\.eventId)).count
        print("webhook SIGKILL test: \(sold.count) committed sales, \(arrivedBeforeKill) requests before the kill, \(repeats) repeated deliveries after it")
    }
}

/// The sales of the background task: the ids answered 201, and a stop switch.
final class SalesRun: Sendable {
    let committed = Mutex<[String]>([])
    let stop = Atomic<Bool>(false)
    var count: Int { committed.withLock { $0.count } }
}
