import Foundation
import Synchronization
import SandboxTestSupport
import Testing

/// Two `sandbox-host` replicas of EU on one PostgreSQL database (the tests' throw-away server),
/// sales through both, one replica SIGKILLed while deliveries wait for their answers.
@Suite(
    "Replicas: SIGKILL of one mid-dispatch loses no sale and no webhook", .blocksThreads,
    .disabled(if: ProcessInfo.processInfo.environment["SANDBOX_TEST_DATABASE"] == "postgres", "runs once, in the main pass"))
struct ReplicaCrashTests {
    @Test(
        "sales through both replicas, one killed mid-delivery: every acknowledged sale is kept and its event delivered, repeats only of the killed replica's in-flight events, ids stable",
        .timeLimit(.minutes(3)))
    func sigkillOneReplica() async throws {
        let database = try PostgresServer.shared().newDatabaseURL()
        let folders = [TemporaryDirectory(), TemporaryDirectory()]
        // A claim lasts 4 s here (60 by default; longer than any delivery below takes), so the
        // survivor takes the dead replica's events over soon.
        let replicas = try folders.map { folder in
            try SandboxHostProcess(
                dataDirectory: folder.url, arguments: ["--access-log", "off", "--database", database, "--webhook-lease", "4"])
        }
        let apis = replicas.map { Service(baseURL: $0.url) }
        let receiver = try Receiver(answering: 200)
        receiver.answer(200, delay: .milliseconds(50))
        let backOfficeKey = try EU.fixture().backOfficeKey
        for merchant in [EU.merchant1, EU.merchant2] {
            expectReply(
                await apis[0].call(
                    "PUT", "/backoffice/v1/merchants/\(merchant)/webhook", bearer: backOfficeKey,
                    body: ["url": receiver.hookURL, "scheme": "monei"]), 200, nil, "point \(merchant) at the receiver")
        }
        // One device on each replica (registered, logged in and paying there).
        let devices = [
            try await Device.open(apis[0], backOfficeKey: backOfficeKey, terminal: EU.terminal1),
            try await Device.open(apis[1], backOfficeKey: backOfficeKey, terminal: EU.terminal2),
        ]
        let runs = [SalesRun(), SalesRun()]
        let sales = (0..<2).map { index in
            Task {
                for n in 0..<1_000 where !runs[index].stop.load(ordering: .relaxed) {
                    guard let reply = try? await devices[index].sale(1000 + 100 * (n % 50), quietly: true) else { break }
                    guard reply.status == 201, reply.string("transactionStatus") == "CLEARED", let id = reply.string("transactionId") else { break }
                    runs[index].committed.withLock { $0.append(id) }
                }
            }
        }
        let flowing = await eventually(120) { receiver.received.count >= 20 && runs[0].count >= 20 && runs[1].count >= 20 }
        #expect(flowing, "deliveries did not start: \(receiver.received.count) received, \(runs.map(\.count)) sales")
        // The receiver holds its next answers for 1.5 s; replica 0 is killed while deliveries wait.
        receiver.answer(200, delay: .milliseconds(1500))
        let before = receiver.received.count
        #expect(await eventually(20) { receiver.received.count > before && receiver.inFlight > 0 }, "nothing in flight")
        let killedAt = Date()
        replicas[0].kill()
        receiver.answer(200, delay: .milliseconds(50))
        runs[0].stop.store(true, ordering: .relaxed)
        _ = await sales[0].value
        // The survivor goes on selling for a while, then stops.
        let afterKill = runs[1].count
        _ = await eventually(60) { runs[1].count >= afterKill + 30 }
        runs[1].stop.store(true, ordering: .relaxed)
        _ = await sales[1].value
        let sold = Set(runs[0].committed.withLock { $0 } + runs[1].committed.withLock { $0 })

        let allArrived = await eventually(60) {
            Set(receiver.received.filter { $0.delivered && $0.type == "payment.succeeded" }.compactMap(\.paymentId)).isSuperset(of: sold)
        }
        let delivered = Set(receiver.received.filter(\.delivered).compactMap(\.paymentId))
        #expect(allArrived, "lost: \(sold.subtracting(delivered).count) of \(sold.count) acknowledged sales never got their event")
        // Every acknowledged sale is in the survivor's log, each payment under one event id, with one body.
        var logged: Set<String> = []
        for merchant in [EU.merchant1, EU.merchant2] {
            let events = expectReply(
                await apis[1].call("GET", "/backoffice/v1/webhooks/events?limit=500&merchantId=\(merchant)", bearer: backOfficeKey), 200, nil,
                "\(merchant)'s log on the survivor"
            ).objects("events")
            logged.formUnion(events.compactMap { $0["transactionId"] as? String })
        }
        #expect(logged.isSuperset(of: sold), "acknowledged sales missing from the survivor: \(sold.subtracting(logged).sorted().prefix(5))")
        // The dead replica's claims end (4 s): the survivor sends what it left unanswered, and its
        // log ends with every event delivered.
        let settled = await eventually(60) {
            var pending = 0
            for merchant in [EU.merchant1, EU.merchant2] {
                pending += await apis[1].call("GET", "/backoffice/v1/webhooks/events?limit=500&merchantId=\(merchant)", bearer: backOfficeKey)
                    .objects("events").filter { $0["state"] as? String != "delivered" }.count
            }
            return pending == 0
        }
        #expect(settled, "events the dead replica claimed were never taken over")
        var idsByPayment: [String: Set<String>] = [:]
        var bodiesById: [String: Set<[UInt8]>] = [:]
        for request in receiver.received {
            guard let id = request.eventId, let payment = request.paymentId else { continue }
            idsByPayment[payment, default: []].insert(id)
            bodiesById[id, default: []].insert(request.body)
        }
        #expect(idsByPayment.values.allSatisfy { $0.count == 1 }, "a payment under several event ids")
        #expect(bodiesById.values.allSatisfy { $0.count == 1 }, "an event id with several bodies")
        // In flight at the kill: sent before it, and not yet recorded as delivered when it came (the
        // receiver records a request as it arrives; those from `before` on were held 1.5 s, the
        // others 50 ms; half a second more for the answer's way back and its commit).
        let inFlightAtKill = Set(
            receiver.received.enumerated().filter { index, request in
                request.arrivedAt <= killedAt && request.arrivedAt.addingTimeInterval((index >= before ? 1.5 : 0.05) + 0.5) > killedAt
            }.compactMap(\.element.eventId))
        let counts = Dictionary(grouping: receiver.received.compactMap(\.eventId), by: { $0 }).mapValues(\.count)
        let repeated = Set(counts.filter { $0.value > 1 }.keys)
        let beyond = repeated.subtracting(inFlightAtKill).map { id in
            id + " at " + receiver.received.filter { $0.eventId == id }.map { String(format: "%+.3f s", $0.arrivedAt.timeIntervalSince(killedAt)) }
                .joined(separator: ", ")
        }
        #expect(beyond.isEmpty, "repeated beyond the killed replica's in-flight events (arrivals from the kill): \(beyond)")
        print("replica SIGKILL test: \(sold.count) acknowledged sales (\(runs.map(\.count))), \(inFlightAtKill.count) in flight at the kill, \(repeated.count) sent twice")
    }
}
