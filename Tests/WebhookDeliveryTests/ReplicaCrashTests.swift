import Foundation
import SandboxStore
import SandboxTestSupport
import Synchronization
import Testing

/// Two `sandbox-host` replicas of EU and two of MBANK on one PostgreSQL database (the tests'
/// throw-away server), and a wallet simulator: card sales, QR payments (EU) and BLIK payments
/// (MBANK) through all four, the first replica of each region SIGKILLed midway while webhook
/// deliveries wait for their answers.
@Suite(
    "Replicas: SIGKILL of one mid-dispatch loses no payment and no webhook", .blocksThreads,
    .disabled(if: ProcessInfo.processInfo.environment["SANDBOX_TEST_DATABASE"] == "postgres", "runs once, in the main pass"))
struct ReplicaCrashTests {
    /// Payments acknowledged in all (about half before the kill).
    static let target = 2_000

    /// One device paying back to back on one replica: card sales, and every other payment the
    /// region's wallet method.
    struct Lane {
        enum Method { case qr, blik(customer: String) }
        let region: String
        let replica: Int
        let terminal: String
        let merchant: String
        let method: Method
        /// Whether the terminal asks for a reference.
        var reference = false
        /// A card of the region's country (a foreign one is offered DCC).
        var card: String { region == "MBANK" ? "visa-pl" : "visa" }
    }

    static let lanes = [
        Lane(region: "EU", replica: 0, terminal: "EU-T0101", merchant: "EU-M01", method: .qr),
        Lane(region: "EU", replica: 1, terminal: "EU-T0202", merchant: "EU-M02", method: .qr, reference: true),
        Lane(region: "MBANK", replica: 0, terminal: "MBANK-T0101", merchant: "MBANK-M01", method: .blik(customer: "jan")),
        Lane(region: "MBANK", replica: 1, terminal: "MBANK-T0203", merchant: "MBANK-M02", method: .blik(customer: "piotr")),
    ]

    @Test(
        "2,000 sales, QR and BLIK payments through two replicas per region, one of each killed mid-delivery: every acknowledged payment is kept and its event delivered, repeats only of the killed replicas' in-flight events, ids stable",
        .timeLimit(.minutes(5)))
    func sigkillOneReplica() async throws {
        let database = try PostgresServer.shared().newDatabaseURL()
        let folders = (0..<5).map { _ in TemporaryDirectory() }
        let walletPort = freePort()
        let walletURL = "http://127.0.0.1:\(walletPort)"
        // A claim lasts 4 s here (60 by default; longer than any delivery below takes), so the
        // survivors take the dead replicas' events over soon.
        var replicas: [String: [SandboxHostProcess]] = [:]
        for (index, region) in ["EU", "MBANK"].enumerated() {
            replicas[region] = try (0..<2).map { replica in
                try SandboxHostProcess(
                    region: region, dataDirectory: folders[2 * index + replica].url,
                    arguments: ["--access-log", "off", "--database", database, "--webhook-lease", "4", "--wallet-url", walletURL])
            }
        }
        // The wallet reaches each region through its second replica, as through a load balancer
        // that takes the dead replica out.
        let wallet = try ChildProcess(
            builtExecutable("wallet-sim"),
            [
                "--port", "\(walletPort)", "--data-dir", folders[4].url.path, "--access-log", "off",
                "--host-url", "EU=\(replicas["EU"]![1].url),MBANK=\(replicas["MBANK"]![1].url)",
            ], workingDirectory: folders[4].url, combinedOutput: true)
        defer { wallet.stop() }
        try #require(wallet.waitForOutput("wallet-sim listening on", seconds: 20), "\(wallet.stdout)")
        let customer = Service(baseURL: walletURL)

        let receiver = try Receiver(answering: 200)
        receiver.answer(200, delay: .milliseconds(50))
        let file = try #require(MerchantsFile.shipped, "sandbox-data/merchants.json does not load")
        var opened: [Device] = []
        for lane in Self.lanes {
            let api = Service(baseURL: replicas[lane.region]![lane.replica].url)
            let backOfficeKey = try #require(file.regions[lane.region]?.backOfficeKey)
            expectReply(
                await api.call(
                    "PUT", "/backoffice/v1/merchants/\(lane.merchant)/webhook", bearer: backOfficeKey,
                    body: ["url": receiver.hookURL, "scheme": "monei"]), 200, nil, "point \(lane.merchant) at the receiver")
            opened.append(try await Device.open(api, backOfficeKey: backOfficeKey, terminal: lane.terminal, region: lane.region))
        }
        let devices = opened

        let runs = Self.lanes.map { _ in SalesRun() }
        let killing = Flag()
        let total = { @Sendable in runs.reduce(0) { $0 + $1.count } }
        let payments = Self.lanes.indices.map { index in
            Task {
                let lane = Self.lanes[index], device = devices[index], run = runs[index]
                var n = 0
                while !run.stop.load(ordering: .relaxed) && total() < Self.target {
                    defer { n += 1 }
                    let reference = lane.reference ? "MIX-\(index)-\(n)" : nil
                    switch await Self.pay(n, lane: lane, device: device, customer: customer, reference: reference) {
                    case .success(let id):
                        run.committed.withLock { $0.append(id) }
                    case .failure(let failure):
                        // Expected only of a killed replica's devices.
                        if lane.replica != 0 || !killing.isSet {
                            Issue.record("[\(lane.terminal)] payment \(n): \(failure)")
                        }
                        return
                    }
                }
            }
        }
        let flowing = await eventually(120) { receiver.received.count >= 20 && total() >= Self.target / 2 }
        #expect(flowing, "payments or deliveries did not start: \(receiver.received.count) received, \(runs.map(\.count)) payments")
        // The receiver holds its next answers for 1.5 s; the first replicas are killed while deliveries wait.
        receiver.answer(200, delay: .milliseconds(1500))
        let before = receiver.received.count
        #expect(await eventually(20) { receiver.received.count > before && receiver.inFlight > 0 }, "nothing in flight")
        killing.set()
        let killedAt = Date()
        replicas["EU"]![0].kill()
        replicas["MBANK"]![0].kill()
        // Both are gone only now (each kill waits for its process): until then they were sending.
        let deadAt = Date()
        receiver.answer(200, delay: .milliseconds(50))
        for (index, lane) in Self.lanes.enumerated() where lane.replica == 0 {
            runs[index].stop.store(true, ordering: .relaxed)
            _ = await payments[index].value
        }
        let atKill = total()
        // The survivors go on to the target.
        for task in payments { _ = await task.value }
        let paid = Set(runs.flatMap { $0.committed.withLock { $0 } })
        #expect(paid.count >= Self.target && paid.count > atKill + 100, "the survivors stopped: \(runs.map(\.count))")

        let allArrived = await eventually(90) {
            Set(receiver.received.filter { $0.delivered && $0.type == "payment.succeeded" }.compactMap(\.paymentId)).isSuperset(of: paid)
        }
        let delivered = Set(receiver.received.filter(\.delivered).compactMap(\.paymentId))
        #expect(allArrived, "lost: \(paid.subtracting(delivered).count) of \(paid.count) acknowledged payments never got their event")
        // Every acknowledged payment is in the database, CLEARED; the dead replicas' claims end
        // (4 s) and the survivors send what those left unanswered: every event delivered.
        let connection = try Connection(postgres: database)
        var stored: [String: String] = [:]
        for schema in ["eu", "mbank"] {
            for row in try connection.query("SELECT id, status FROM \(schema).transactions") {
                stored[try row["id"] as String] = try row["status"] as String
            }
        }
        let missing = paid.filter { stored[$0] != "CLEARED" }
        #expect(missing.isEmpty, "acknowledged payments missing or not CLEARED: \(missing.prefix(5).map { "\($0): \(stored[$0] ?? "absent")" })")
        let settled = await eventually(60) {
            let pending = try? ["eu", "mbank"].reduce(0) { sum, schema in
                sum + (try connection.query("SELECT COUNT(*) AS n FROM \(schema).webhook_events WHERE state <> 'delivered'")[0]["n"] as Int64)
            }
            return pending == 0
        }
        #expect(settled, "events the dead replicas claimed were never taken over")

        var idsByPayment: [String: Set<String>] = [:]
        var bodiesById: [String: Set<[UInt8]>] = [:]
        for request in receiver.received {
            guard let id = request.eventId, let payment = request.paymentId else { continue }
            idsByPayment[payment, default: []].insert(id)
            bodiesById[id, default: []].insert(request.body)
        }
        #expect(idsByPayment.values.allSatisfy { $0.count == 1 }, "a payment under several event ids")
        #expect(bodiesById.values.allSatisfy { $0.count == 1 }, "an event id with several bodies")
        // In flight at the kill: sent before the killed replicas were gone, and not yet recorded as
        // delivered when the kill began (the receiver records a request as it arrives; those from
        // `before` on were held 1.5 s, the others 50 ms; a second and a half more for the answer's
        // way back and its commit on a machine busy with other tests).
        let inFlightAtKill = Set(
            receiver.received.enumerated().filter { index, request in
                request.arrivedAt <= deadAt && request.arrivedAt.addingTimeInterval((index >= before ? 1.5 : 0.05) + 1.5) > killedAt
            }.compactMap(\.element.eventId))
        let counts = Dictionary(grouping: receiver.received.compactMap(\.eventId), by: { $0 }).mapValues(\.count)
        let repeated = Set(counts.filter { $0.value > 1 }.keys)
        let beyond = repeated.subtracting(inFlightAtKill).map { id in
            id + " at " + receiver.received.filter { $0.eventId == id }.map { String(format: "%+.3f s", $0.arrivedAt.timeIntervalSince(killedAt)) }
                .joined(separator: ", ")
        }
        #expect(beyond.isEmpty, "repeated beyond the killed replicas' in-flight events (arrivals from the kill): \(beyond)")
        print(
            "replica SIGKILL test: \(paid.count) acknowledged payments (\(runs.map(\.count)); \(atKill) at the kill), \(inFlightAtKill.count) in flight at the kill, \(repeated.count) sent twice"
        )
    }

    /// The `n`th payment of a lane: a card sale, or (odd `n`) a QR order the customer pays at the
    /// wallet, or a BLIK payment with a code from the customer's bank app that the customer
    /// approves. Acknowledged (its id) when the sale clears, or when the wallet answers the
    /// customer's approval (once the host took it durably); a failure when anything fails (a
    /// replica killed under the device).
    static func pay(_ n: Int, lane: Lane, device: Device, customer: Service, reference: String?) async -> Result<String, Device.Failed> {
        func failed(_ step: String, _ reply: HTTPReply) -> Result<String, Device.Failed> { .failure(Device.Failed(description: "\(step): \(reply)")) }
        guard n % 2 == 1 else {
            let reply: HTTPReply
            do {
                reply = try await device.sale(1000 + 100 * (n % 50), card: lane.card, reference: reference, quietly: true)
            } catch {
                return .failure(Device.Failed(description: "sale: \(error)"))
            }
            guard reply.status == 201, reply.string("transactionStatus") == "CLEARED", let id = reply.string("transactionId") else {
                return failed("sale", reply)
            }
            return .success(id)
        }
        let made: HTTPReply
        switch lane.method {
        case .qr:
            made = await device.qrPayment(1000 + 100 * (n % 20), reference: reference)
        case .blik(let who):
            let code = await customer.call("POST", "/api/blik/codes", body: ["customerId": who])
            guard code.status == 201, let digits = code.string("code") else { return failed("BLIK code", code) }
            made = await device.blikPayment(100, code: digits, reference: reference)
        }
        guard made.status == 201, let id = made.string("transactionId") else { return failed("payment", made) }
        let approved = await customer.call("POST", "/api/orders/\(id)/pay", body: [:])
        guard approved.status == 200, approved.string("status") == "paid" else { return failed("approval", approved) }
        // The device reads the outcome (from a killed replica: nothing, and the lane ends).
        let read = await device.apmPayment(id)
        if read.status == 200 && read.string("transactionStatus") != "CLEARED" {
            Issue.record("[\(lane.terminal)] paid at the wallet, and then: \(read)")
        }
        return .success(id)
    }
}

/// A flag the test raises once and the lanes read.
final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)
    var isSet: Bool { raised.load(ordering: .relaxed) }
    func set() { raised.store(true, ordering: .relaxed) }
}
