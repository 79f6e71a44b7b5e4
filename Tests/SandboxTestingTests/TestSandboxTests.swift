import Foundation
import HostTestSupport
import SandboxTestSupport
import SandboxTesting
import SandboxWire
import Testing

/// `SandboxTesting` against a running sandbox (hosts, wallet and inbox in this process, over HTTP),
/// as an app's UI test drives it.
@Suite("SandboxTesting: a test drives the sandbox")
struct TestSandboxTests {
    static func library(_ sandbox: InProcessSandbox) -> TestSandbox {
        TestSandbox(
            TestSandbox.Endpoints(
                environments: sandbox.endpoints, portal: URL(string: sandbox.sandbox.portal.url), wallet: URL(string: sandbox.sandbox.wallet.url),
                inbox: URL(string: sandbox.sandbox.inbox.url)))
    }

    static let seed = SandboxSeed(regions: [
        "EU": HostSeed(
            devices: [HostSeed.Device(terminalId: "EU-T0101", secureCode: "2468", loggedIn: true)],
            transactions: [HostSeed.Transaction(terminalId: "EU-T0101", amount: 1250, status: .CLEARED, secondsAgo: 3600)])
    ])

    @Test("seed, snapshot, change, restore and reset: the device's history and the clock follow")
    func stateRoundTrip() async throws {
        try await withSandbox { sandbox in
            let library = Self.library(sandbox)
            let eu = Service(name: "EU", baseURL: try sandbox.url(of: "EU"))
            let results = try await library.seed(Self.seed)
            let token = try #require(results.first?.devices.first?.sessionToken, "\(results)")
            func count() async -> Int? { await eu.call("GET", "/terminal/v1/transactions/count", bearer: token).int("count") }
            #expect(await count() == 1, "the seeded payment")

            try await library.snapshot("seeded")
            #expect(try await library.snapshots() == ["seeded"])
            try await library.advanceClock(by: 60)
            #expect(try await library.clock(region: "EU").skewSeconds == 60)
            try await library.restore("seeded")
            #expect(try await library.clock(region: "EU").skewSeconds == 0, "the clock as saved")
            #expect(await count() == 1)

            try await library.deleteSnapshot("seeded")
            #expect(try await library.snapshots().isEmpty)
            try await library.reset()
            #expect(await eu.call("GET", "/terminal/v1/transactions/count", bearer: token).status == 401, "reset: the session is gone")
        }
    }

    @Test("a refused seed is a typed error with the host's code and the field's path in the seed; nothing of it stays")
    func refusedSeed() async throws {
        try await withSandbox { sandbox in
            let library = Self.library(sandbox)
            var bad = Self.seed
            bad.regions["EU"]?.devices?[0].secureCode = "12"
            do throws(TestSandboxError) {
                try await library.seed(bad)
                Issue.record("a 2-digit secure code was accepted")
            } catch {
                #expect(error.status == 400 && error.code == .invalidRequest, "\(error)")
                #expect(error.field == "regions.EU.devices[0].secureCode", "\(error)")
            }
            try await library.seed(Self.seed)
            do throws(TestSandboxError) {
                try await library.seed(Self.seed)
                Issue.record("a terminal seeded twice")
            } catch {
                #expect(error.status == 409 && error.code == .terminalInUse && error.field == "regions.EU.devices[0].terminalId", "\(error)")
            }
        }
    }

    @Test("faults, the customer's next answer, BLIK codes, the inbox and the journal")
    func controlAndObservation() async throws {
        try await withSandbox { sandbox in
            let library = Self.library(sandbox)
            let eu = Service(name: "EU", baseURL: try sandbox.url(of: "EU"))
            let wallet = Service(name: "wallet", baseURL: sandbox.sandbox.wallet.url)

            try await library.addFault(.status(503, Fault.Match(path: "/v1/environment")), region: "EU")
            #expect(await eu.call("GET", "/v1/environment").status == 503)
            #expect(await eu.call("GET", "/v1/environment").status == 200, "one request only")
            let journal = try await library.requests(region: "EU")
            #expect(journal.contains { $0.path == "/v1/environment" && $0.status == 503 && $0.fault != nil }, "\(journal)")
            try await library.addFault(.status(503, Fault.Match(path: "/v1/environment"), count: 5), region: "EU")
            try await library.clearFaults(region: "EU")
            #expect(await eu.call("GET", "/v1/environment").status == 200)

            try await library.answerNextWalletPayment(.decline(reason: "insufficient_funds"), terminalId: "EU-T0101")
            let rules = await wallet.call("GET", "/api/rules")
            #expect(rules.array("rules")?.count == 1 && rules.text.contains("insufficient_funds") && rules.text.contains("EU-T0101"), "\(rules)")
            try await library.clearWalletRules()
            #expect(await wallet.call("GET", "/api/rules").array("rules")?.isEmpty == true)
            let code = try await library.blikCode(customer: "jan")
            #expect(code.count == 6 && code.allSatisfy(\.isNumber), "\(code)")

            expectReply(await eu.call("POST", "/_sandbox/webhooks/trigger", body: ["event": "payment.succeeded"]), 202, nil, "a sample webhook")
            let received = await eventuallyValue { () async -> [TestSandbox.ReceivedWebhook]? in
                let events = (try? await library.receivedWebhooks()) ?? []
                return events.isEmpty ? nil : events
            }
            #expect(received?.first?.type == "payment.succeeded" && received?.first?.merchantId.hasPrefix("EU-") == true, "\(String(describing: received))")
            try await library.clearReceivedWebhooks()
            #expect(try await library.receivedWebhooks().isEmpty)
        }
    }

    @Test("the customer at the card screen: turns queued in order, read back, emptied; a card cards.json lacks is a typed error naming the field")
    func customerTurns() async throws {
        try await withSandbox { sandbox in
            let library = Self.library(sandbox)
            let queued = try await library.queueCustomer(.tap("mc-pin", pin: "wrong"), terminalId: "EU-T0101", region: "EU")
            #expect(queued == [.tap("mc-pin", pin: "wrong")])
            try await library.queueCustomer(.tap("visa-us-dcc", dccOfferAccepted: true), terminalId: "EU-T0101", region: "EU")
            try await library.queueCustomer(.cancel(afterSeconds: 1), terminalId: "EU-T0101", region: "EU")
            try await library.queueCustomer(.noTap, terminalId: "EU-T0101", region: "EU")
            #expect(try await library.queuedCustomers(terminalId: "EU-T0101", region: "EU").map(\.action) == [.tap, .tap, .cancel, .noTap])
            #expect(try await library.queuedCustomers(terminalId: "EU-T0102", region: "EU").isEmpty, "a queue per terminal")
            do throws(TestSandboxError) {
                try await library.queueCustomer(.tap("no-such-card"), terminalId: "EU-T0101", region: "EU")
                Issue.record("a card cards.json lacks was queued")
            } catch {
                #expect(error.status == 400 && error.code == .invalidRequest && error.field == "card", "\(error)")
            }
            do throws(TestSandboxError) {
                try await library.queueCustomer(.noTap, terminalId: "EU-T9999", region: "EU")
                Issue.record("a terminal the region lacks")
            } catch {
                #expect(error.status == 404 && error.code == .terminalNotFound, "\(error)")
            }
            try await library.clearCustomers(terminalId: "EU-T0101", region: "EU")
            #expect(try await library.queuedCustomers(terminalId: "EU-T0101", region: "EU").isEmpty)
        }
    }

    @Test("a seeded QR order waits at the wallet, keeps its terminal busy, and is paid there as a device's would be")
    func seededQROrderWaitsAtTheWallet() async throws {
        try await withSandbox { sandbox in
            let library = Self.library(sandbox)
            let wallet = Service(name: "wallet", baseURL: sandbox.sandbox.wallet.url)
            let eu = Service(name: "EU", baseURL: try sandbox.url(of: "EU"))
            var seed = Self.seed
            seed.regions["EU"]?.qrOrders = [HostSeed.QROrder(terminalId: "EU-T0101", amount: 1990, brand: "WECHATPAY", reference: "TABLE-4")]
            let result = try #require(try await library.seed(seed).first { $0.region == "EU" })
            let order = try #require(result.qrOrders?.first, "\(result)")
            #expect(order.terminalId == "EU-T0101" && order.brand == "WECHATPAY" && order.payUrl.contains(order.transactionId), "\(order)")

            let open = await wallet.call("GET", "/api/orders")
            #expect(open.array("orders")?.count == 1 && open.text.contains(order.transactionId) && open.text.contains("1990"), "\(open)")
            let token = try #require(result.devices.first?.sessionToken)
            let busy = await eu.call("POST", "/terminal/v1/transactions/validate", bearer: token, body: ["transactionServiceType": "PAYMENT", "requestedAmount": 500])
            #expect(busy.status == 409 && busy.text.contains("terminal_busy"), "the order holds the terminal: \(busy)")

            expectReply(await wallet.call("POST", "/api/orders/\(order.transactionId)/pay"), 200, nil, "the customer pays")
            let paid = await eventuallyValue { () async -> HTTPReply? in
                let reply = await eu.call("GET", "/terminal/v1/apm/transactions/\(order.transactionId)", bearer: token)
                return reply.text.contains("CLEARED") ? reply : nil
            }
            #expect(paid != nil, "the host hears of the payment as for a device's order")
        }
    }

    @Test("a QR order the terminal cannot take is refused with its path, and nothing of the seed stays")
    func refusedQROrder() async throws {
        try await withSandbox { sandbox in
            let library = Self.library(sandbox)
            let wallet = Service(name: "wallet", baseURL: sandbox.sandbox.wallet.url)
            for (order, field) in [
                (HostSeed.QROrder(terminalId: "EU-T0102", amount: 500), "regions.EU.qrOrders[0].terminalId"),
                (HostSeed.QROrder(terminalId: "EU-T0101", amount: 500, brand: "TWINT"), "regions.EU.qrOrders[0].brand"),
                (HostSeed.QROrder(terminalId: "EU-T0101", amount: 0), "regions.EU.qrOrders[0].amount"),
            ] {
                var seed = Self.seed
                seed.regions["EU"]?.qrOrders = [order]
                do throws(TestSandboxError) {
                    try await library.seed(seed)
                    Issue.record("\(order) was seeded")
                } catch {
                    #expect(error.field == field, "\(order): \(error)")
                }
            }
            var twice = Self.seed
            twice.regions["EU"]?.qrOrders = [HostSeed.QROrder(terminalId: "EU-T0101", amount: 500), HostSeed.QROrder(terminalId: "EU-T0101", amount: 600)]
            do throws(TestSandboxError) {
                try await library.seed(twice)
                Issue.record("two orders on one terminal")
            } catch {
                #expect(error.field == "regions.EU.qrOrders[0].terminalId", "\(error)")
            }
            #expect(await wallet.call("GET", "/api/orders").array("orders")?.isEmpty == true, "no order was made")
            try await library.seed(Self.seed)  // the device's terminal is still free: nothing stayed
        }
    }

    @Test("no sandbox running: the error says so, with no status")
    func nothingListens() async throws {
        // Ports 1 to 15 of this machine: nothing listens there.
        let library = TestSandbox.local(basePort: 1)
        do throws(TestSandboxError) {
            try await library.snapshot("x")
            Issue.record("a snapshot of nothing")
        } catch {
            #expect(error.status == nil && error.message.contains("Is the sandbox running"), "\(error)")
        }
    }
}

/// docs/testing-your-app.md's Swift example is `ReadyToPayExample.swift` word for word, so it
/// compiles here, and it runs: the first test seeds and saves, the next one restores.
@Suite("docs/testing-your-app.md: the SandboxTesting example")
struct ReadyToPayExampleTests {
    @Test("the doc's Swift block is ReadyToPayExample.swift, and it prepares twice: seeded and saved, then restored")
    func exampleRuns() async throws {
        let doc = try String(contentsOf: Paths.repository.appendingPathComponent("docs/testing-your-app.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "```swift\n"))
        let end = try #require(doc.range(of: "\n```", range: start.upperBound..<doc.endIndex))
        let file = try String(
            contentsOf: Paths.repository.appendingPathComponent("Tests/SandboxTestingTests/ReadyToPayExample.swift"), encoding: .utf8)
        #expect(String(doc[start.upperBound..<end.lowerBound]) + "\n" == file, "the doc's example and the compiled file differ")

        try await withSandbox { sandbox in
            let library = TestSandboxTests.library(sandbox)
            let seed = Paths.sandboxData.appendingPathComponent("seeds/logged-in-eu.json")
            try await Checkout.prepare(library, seed: seed)
            #expect(try await library.snapshots() == ["ready-to-pay"])
            let eu = Service(name: "EU", baseURL: try sandbox.url(of: "EU"))
            let terminal = "/backoffice/v1/terminals/EU-T0101"
            let key = sandbox.fixtures.regions["EU"]?.backOfficeKey ?? ""
            #expect(await eu.call("GET", terminal, bearer: key).json.map { ($0 as? [String: Any])?["registered"] as? Bool } == true)
            // A journey changes the state: here, the back office unregisters the device.
            expectReply(await eu.call("POST", terminal + "/unregister", bearer: key), 204, nil, "unregister")
            #expect(await eu.call("GET", terminal, bearer: key).json.map { ($0 as? [String: Any])?["registered"] as? Bool } == false)
            try await Checkout.prepare(library, seed: seed)
            #expect(await eu.call("GET", terminal, bearer: key).json.map { ($0 as? [String: Any])?["registered"] as? Bool } == true, "restored")
            let rules = await Service(name: "wallet", baseURL: sandbox.sandbox.wallet.url).call("GET", "/api/rules")
            #expect(rules.array("rules")?.count == 1, "the restore took the first prepare's rule back, the second added its own: \(rules)")
            #expect(try await Checkout.webhooks(library).isEmpty)
        }
    }
}
