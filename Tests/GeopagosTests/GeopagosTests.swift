import LockedValue
import Foundation
import HostTestSupport
import Payments
import SimulatedReader
import TapToPayHardware
import SandboxTestSupport
import Testing

/// Geopagos' Payments SDK through an app written from the seeds, against a Geopagos host in this
/// process (its clock standing still) and a reader on a manual clock. Serialized: the SDK's
/// configuration and the sandbox set-up are global, as on a phone.
@Suite("Geopagos Payments SDK: the seeds' app on the Geopagos host", .serialized, .vendorApp("GEOPAGOS"))
struct GeopagosTests {
    /// A Geopagos host, the merchant's backend that buys reader tokens, and the app.
    final class Stage: @unchecked Sendable {
        let host: InProcessHost
        let clock = ManualReaderClock()
        let apiKey: String
        let app: SeedCheckout
        /// The terminal the backend's next token names.
        let terminal = LockedValueBox("GEOPAGOS-T0101")
        /// Tokens the backend hands out before buying fresh ones (an expired one, a forged one …).
        let queued = LockedValueBox<[String]>([])
        let cards: LockedValueBox<[CardScript]>

        init(
            cards: [CardScript] = [.tap(ShippedCards.card("visa-ar"))], script: Script = Script(), readerScript: ReaderScript = ReaderScript(),
            device: SimulatedReader.Device = GeopagosSandbox.defaultDevice, callbackQueue: DispatchQueue? = nil
        ) throws {
            host = try InProcessHost(region: "GEOPAGOS")
            apiKey = try MerchantsFile.load().region("GEOPAGOS").merchants[0].apiKey
            self.cards = LockedValueBox(cards)
            var sandbox = GeopagosSandbox()
            sandbox.clock = clock
            sandbox.device = device
            sandbox.readerScript = readerScript
            sandbox.callbackQueue = callbackQueue
            let queue = self.cards
            sandbox.cardScripts = { _ in queue.withLockedValue { $0.isEmpty ? nil : $0.removeFirst() } }
            GeopagosSandbox.current = sandbox
            let (service, key, terminal, queued) = (host.service, apiKey, terminal, queued)
            let backend = Backend { _ in
                if let next = queued.withLockedValue({ $0.isEmpty ? nil : $0.removeFirst() }) { return next }
                let reply = await service.call(
                    "POST", "/merchant/v1/reader-tokens", bearer: key, body: ["terminalId": terminal.withLockedValue { $0 }])
                return reply.string("token")
            }
            app = try SeedCheckout(backend: backend, script: script, endpoint: host.host.url)
        }

        deinit { host.stop() }

        /// A token for `terminal`, bought now.
        func token(_ terminal: String = "GEOPAGOS-T0101") async -> String? {
            await host.service.call("POST", "/merchant/v1/reader-tokens", bearer: apiKey, body: ["terminalId": terminal]).string("token")
        }

        /// Runs one intent of `type` until the app sees it approved or failed; the lines it saw meanwhile.
        func run(_ type: TransactionType, sourceLocation: SourceLocation = #_sourceLocation) async -> [String] {
            let mark = app.seen.all.count
            let done = app.finished.withLock { $0.count }
            app.start(type)
            let ended = await eventually(300) { app.finished.withLock { $0.count } > done }
            #expect(ended, "the \(type) did not end: \(app.seen.all.dropFirst(mark))", sourceLocation: sourceLocation)
            return Array(app.seen.all.dropFirst(mark))
        }

        var lastApproved: String? { app.finished.withLock { $0.last } }

        /// The host's record of a transaction (the back office's `transaction`); empty when there is none.
        func record(_ id: String) async throws -> [String: Any] {
            let key = try MerchantsFile.load().region("GEOPAGOS").backOfficeKey
            return await host.service.call("GET", "/backoffice/v1/transactions/\(id)", bearer: key)["transaction"] as? [String: Any] ?? [:]
        }

        /// How many transactions the host has, of every terminal.
        func transactionCount() async throws -> Int {
            let key = try MerchantsFile.load().region("GEOPAGOS").backOfficeKey
            return (await host.service.call("GET", "/backoffice/v1/transactions", bearer: key)["transactions"] as? [Any])?.count ?? -1
        }
    }

    @Test("a payment, its cancel with the same card, another payment refunded once it can no longer be cancelled: each approved on the host")
    func paymentCancelRefund() async throws {
        let visa = ShippedCards.card("visa-ar")
        let stage = try Stage(cards: [.tap(visa), .tap(visa), .tap(visa), .tap(visa)])
        let paid = await stage.run(.payment)
        #expect(paid.contains("token: setup"), "\(paid)")
        #expect(paid.contains("linking: setup"), "the first prepare shows Apple's terms: \(paid)")
        #expect(paid.contains("confirmPayment VISA 0005"), "\(paid)")
        #expect(!paid.contains { $0.hasPrefix("selectEMVApp") }, "a card with one application is not asked about: \(paid)")
        #expect(paid.last == "approved payment CLEARED 100 ARS", "\(paid)")
        #expect(paid.contains("reader: connected Tap to Pay on iPhone GEOPAGOS-T0101 waitingForCard"), "\(paid)")
        let sale = try #require(stage.lastApproved)
        let cleared = try await stage.record(sale)
        #expect(cleared["transactionStatus"] as? String == "CLEARED" && cleared["transactionAmount"] as? Int == 10000, "\(cleared)")

        stage.app.cancelOf.withLock { $0 = sale }
        let cancelled = await stage.run(.cancel)
        #expect(cancelled.last == "approved cancel CANCELLED 100 ARS", "\(cancelled)")
        #expect(!cancelled.contains("token: setup"), "the prepared connection is kept: \(cancelled)")
        #expect(try await stage.record(sale)["transactionStatus"] as? String == "CANCELLED")

        let second = await stage.run(.payment)
        let secondSale = try #require(stage.lastApproved)
        #expect(second.last == "approved payment CLEARED 100 ARS", "\(second)")
        // Within 30 minutes a sale is cancelled, not refunded; after that, refunded with the card.
        await stage.host.service.advanceClock(31 * 60, "the cancel window passes")
        stage.app.refundOf.withLock { $0 = secondSale }
        let refunded = await stage.run(.refund)
        #expect(refunded.contains("confirmRefund VISA 0005"), "\(refunded)")
        #expect(refunded.last == "approved refund CLEARED 100 ARS", "\(refunded)")
        #expect(try await stage.record(secondSale)["transactionStatus"] as? String == "REFUNDED")
    }

    @Test("a customer a test queued on the host for the terminal taps first (a Mastercard), then the app's own card (a Visa)")
    func queuedCustomer() async throws {
        let stage = try Stage(cards: [.tap(ShippedCards.card("visa-ar")), .tap(ShippedCards.card("visa-ar"))])
        let queued = await stage.host.service.call("POST", "/_sandbox/customer/GEOPAGOS-T0101", body: ["action": "tap", "card": "mc-ar"])
        #expect(queued.status == 201, "\(queued)")
        let first = await stage.run(.payment)
        #expect(first.contains { $0.hasPrefix("confirmPayment MASTERCARD") } && first.last == "approved payment CLEARED 100 ARS", "\(first)")
        let second = await stage.run(.payment)
        #expect(second.contains("confirmPayment VISA 0005") && second.last == "approved payment CLEARED 100 ARS", "\(second)")
    }

    @Test("with a callback queue (the main queue on Apple platforms), every listener state and reader notice reaches the app on it, in order")
    func callbacksOnTheAppsQueue() async throws {
        let appQueue = DispatchQueue(label: "app-main")
        appQueue.setSpecific(key: Seen.queueKey, value: "app-main")
        let stage = try Stage(callbackQueue: appQueue)
        let paid = await stage.run(.payment)
        #expect(paid.last == "approved payment CLEARED 100 ARS", "\(paid)")
        let fromSDK = stage.app.seen.entries.filter { entry in
            ["reader:", "provideDevice", "provideReadConfig", "confirmPayment", "approved", "notice:"].contains { entry.line.hasPrefix($0) }
        }
        #expect(fromSDK.count >= 5, "\(fromSDK)")
        #expect(fromSDK.allSatisfy { $0.queue == "app-main" }, "\(fromSDK)")
    }

    @Test("a cancel with another card is refused card_mismatch and the sale stays CLEARED; a declined card is a non-recoverable error")
    func cancelWithAnotherCardAndDecline() async throws {
        let stage = try Stage(cards: [.tap(ShippedCards.card("visa-ar")), .tap(ShippedCards.card("mc-ar")), .tap(ShippedCards.card("visa-ar"))])
        _ = await stage.run(.payment)
        let sale = try #require(stage.lastApproved)
        stage.app.cancelOf.withLock { $0 = sale }
        let refused = await stage.run(.cancel)
        #expect(refused.last == "nonRecoverableError refused(code: \"card_mismatch\")", "\(refused)")
        #expect(try await stage.record(sale)["transactionStatus"] as? String == "CLEARED")

        // 42,05: the issuer's "do not honour".
        stage.app.script.withLock { $0.amount = Decimal(string: "42.05")! }
        let declined = await stage.run(.payment)
        #expect(declined.last == "nonRecoverableError declined(code: \"05\")", "\(declined)")
    }

    @Test("a card with two applications: selectEMVApp offers both; the seed's first, or the one the merchant picks, is the one paid with")
    func emvApplicationSelection() async throws {
        let dual = ShippedCards.card("visa-ar-dual")
        let stage = try Stage(cards: [.tap(dual), .tap(dual)])
        let first = await stage.run(.payment)
        #expect(first.contains("selectEMVApp VISA CREDITO, VISA DEBITO"), "\(first)")
        #expect(first.contains("application VISA CREDITO"), "\(first)")
        let credit = try #require(stage.lastApproved)
        #expect(try await stage.record(credit)["applicationLabel"] as? String == "VISA CREDITO")
        stage.app.script.withLock { $0.pickEMVApp = { apps in apps.last } }
        let second = await stage.run(.payment)
        #expect(second.contains("application VISA DEBITO") && second.last == "approved payment CLEARED 100 ARS", "\(second)")
        let debit = try #require(stage.lastApproved)
        let record = try await stage.record(debit)
        #expect(record["applicationLabel"] as? String == "VISA DEBITO" && record["AID"] as? String == "A0000000032010", "\(record)")
    }

    @Test("the token loop: an expired token gives .rejected(.expired), a forged one .rejected(.invalid), then a valid one connects")
    func tokenRejectionThenAcceptance() async throws {
        let stage = try Stage()
        let old = try #require(await stage.token())
        await stage.host.service.advanceClock(25 * 3600, "the token's 24 hours pass")
        stage.queued.withLockedValue { $0 = [old, "eyJhbGciOiJIUzI1NiJ9.e30.Zm9yZ2Vk"] }
        let paid = await stage.run(.payment)
        let tokens = paid.filter { $0.hasPrefix("token: ") }
        #expect(tokens.count == 3, "\(tokens)")
        #expect(tokens.first == "token: setup")
        #expect(tokens.dropFirst().first == "token: rejected(SimulatedReader.TokenRejection.expired)", "\(tokens)")
        #expect(tokens.last?.hasPrefix("token: rejected(SimulatedReader.TokenRejection.invalid(") == true, "\(tokens)")
        #expect(paid.last == "approved payment CLEARED 100 ARS", "\(paid)")
    }

    @Test("account linking: the merchant denies Apple's terms, the app is asked again (.deniedByUser), confirms, and the reader connects")
    func linkingDeniedThenConfirmed() async throws {
        let stage = try Stage(readerScript: ReaderScript(termsResponses: [.deny, .accept]))
        #expect(await stage.app.tapToPayInstaller.prepareConnection() == .success)
        #expect(stage.app.seen.all.filter { $0.hasPrefix("linking: ") } == ["linking: setup", "linking: deniedByUser"])
        // A merchant who cancels at the explanation stops the connection with a connection error.
        let declining = try Stage(script: Script(linking: { _ in .cancel }))
        guard case .fail(.accountLinkingCancelled, _) = await declining.app.tapToPayInstaller.prepareConnection() else {
            Issue.record("a cancelled linking must fail the prepare")
            return
        }
    }

    @Test("busy: prepare and clear fail .busy while a transaction waits for its confirmation; clear with nothing prepared succeeds at once")
    func busy() async throws {
        let gate = LockedValueBox(false)
        let stage = try Stage(script: Script(confirm: { _ in
            .confirmAfter { _ = await eventually(60) { gate.withLockedValue { $0 } } }
        }))
        #expect(await stage.app.tapToPayInstaller.clearConnection() == .success, "nothing prepared")
        stage.app.start(.payment)
        #expect(await eventually(300) { stage.app.seen.all.contains { $0.hasPrefix("confirmPayment") } })
        guard case .fail(.busy, _) = await stage.app.tapToPayInstaller.prepareConnection() else {
            Issue.record("prepare during a transaction must be busy")
            return
        }
        guard case .fail(.busy, _) = await stage.app.tapToPayInstaller.clearConnection() else {
            Issue.record("clear during a transaction must be busy")
            return
        }
        gate.withLockedValue { $0 = true }
        #expect(await eventually(300) { stage.app.seen.all.last == "approved payment CLEARED 100 ARS" }, "\(stage.app.seen.all)")
        #expect(await stage.app.tapToPayInstaller.clearConnection() == .success)
    }

    @Test("Apple's card screen times out after 40 s: a recoverable error; Try Again brings the screen back in the same transaction")
    func cardScreenTimeoutThenTryAgain() async throws {
        let visa = ShippedCards.card("visa-ar")
        let stage = try Stage(cards: [.noTap(thenTryAgain: .tap(visa, after: 3))])
        let before = stage.clock.now()
        let paid = await stage.run(.payment)
        #expect(paid.contains("recoverableError cardReadTimeout"), "\(paid)")
        #expect(paid.filter { $0.hasSuffix("waitingForCard") }.count == 2, "the screen showed twice: \(paid)")
        #expect(paid.last == "approved payment CLEARED 100 ARS", "\(paid)")
        #expect(stage.clock.now().timeIntervalSince(before) >= 43, "40 s of screen, then 3 s to the tap")
        #expect(paid.filter { $0 == "provideReadConfig" }.count == 1, "no new transaction: \(paid)")
    }

    @Test("the card data lives 120 s: a confirmation later than that ends the transaction and nothing reaches the host")
    func cardDataExpires() async throws {
        let clock = LockedValueBox<ManualReaderClock?>(nil)
        let stage = try Stage(script: Script(confirm: { _ in .confirmAfter { clock.withLockedValue { $0 }?.advance(by: 121) } }))
        clock.withLockedValue { $0 = stage.clock }
        let late = await stage.run(.payment)
        #expect(late.last == "nonRecoverableError cardDataExpired", "\(late)")
        #expect(try await stage.transactionCount() == 0, "an expired card read reaches no host")
        // Within 120 s it goes through.
        stage.app.script.withLock { $0.confirm = { _ in .confirmAfter { clock.withLockedValue { $0 }?.advance(by: 119) } } }
        stage.cards.withLockedValue { $0 = [.tap(ShippedCards.card("visa-ar"))] }
        #expect(await stage.run(.payment).last == "approved payment CLEARED 100 ARS")
    }

    @Test("a new intent while one waits aborts the old one; rejecting the card sends nothing")
    func newIntentAbortsAndReject() async throws {
        let gate = LockedValueBox(false)
        let stage = try Stage(
            cards: [.tap(ShippedCards.card("visa-ar")), .tap(ShippedCards.card("visa-ar"))],
            script: Script(confirm: { _ in gate.withLockedValue { $0 } ? .reject : .confirmAfter { _ = await eventually(5) { false } } }))
        stage.app.start(.payment)
        #expect(await eventually(300) { stage.app.seen.all.contains { $0.hasPrefix("confirmPayment") } })
        gate.withLockedValue { $0 = true }
        // The first intent's abort ends one run at once; the second ends when its card is rejected.
        stage.app.start(.payment)
        #expect(await eventually(300) { stage.app.seen.all.last == "nonRecoverableError rejected" }, "\(stage.app.seen.all)")
        #expect(stage.app.seen.all.contains("nonRecoverableError aborted"), "\(stage.app.seen.all)")
    }

    @Test("clear, then a token for another terminal: the next transaction runs on that terminal")
    func switchingConfiguration() async throws {
        let stage = try Stage(cards: [.tap(ShippedCards.card("visa-ar")), .tap(ShippedCards.card("visa-ar"))])
        _ = await stage.run(.payment)
        #expect(await stage.app.tapToPayInstaller.clearConnection() == .success)
        stage.terminal.withLockedValue { $0 = "GEOPAGOS-T0102" }
        let moved = await stage.run(.payment)
        #expect(moved.contains("token: setup"), "a cleared connection asks for a new token: \(moved)")
        #expect(moved.contains("reader: connected Tap to Pay on iPhone GEOPAGOS-T0102 idle"), "\(moved)")
        let sale = try #require(stage.lastApproved)
        #expect(try await stage.record(sale)["terminalId"] as? String == "GEOPAGOS-T0102")
    }

    @Test("set-up: a bad endpoint or no installer does not build; an unsupported phone prepares .notSupported and clears at once; a wrong currency is refused")
    func setUp() async throws {
        let installer = TapToPayReaderInstaller(tokenProvider: { _ in .cancel }, onAccountLinkingRequired: { _ in .confirm }, onReaderNotice: { _ in })
        #expect(throws: PaymentsConfigurationError.invalidEndpoint("ftp://example.com")) {
            try PaymentsConfiguration.Builder(endpoint: URL(string: "ftp://example.com")!, readerInstallers: [installer]).build()
        }
        #expect(throws: PaymentsConfigurationError.noReaderInstallers) {
            try PaymentsConfiguration.Builder(endpoint: URL(string: "http://127.0.0.1:8114")!, readerInstallers: []).build()
        }
        let old = try Stage(device: SimulatedReader.Device(model: "iPhone12,1", osVersion: "16.6"))
        #expect(!old.app.tapToPayInstaller.isTapToPaySupported())
        #expect(old.app.seen.all.contains("supported: false"))
        guard case .fail(.notSupported, _) = await old.app.tapToPayInstaller.prepareConnection() else {
            Issue.record("an unsupported phone must not prepare")
            return
        }
        #expect(await old.app.tapToPayInstaller.clearConnection() == .success)

        let stage = try Stage()
        #expect(throws: MoneyError.invalidAmount("1.005 ARS")) { try Money(amount: Decimal(string: "1.005")!, currency: .ars) }
        let dollars = await stage.host.service.call(
            "POST", "/merchant/v1/reader-tokens", bearer: stage.apiKey, body: ["currency": "USD"])
        #expect(dollars.status == 400 && dollars.errorCode == "invalid_currency", "\(dollars.text)")
    }

    @Test("discovery needs the terms accepted first; a stopping notice at prepare fails it and reaches onReaderNotice")
    func discoveryAndNotices() async throws {
        let stage = try Stage()
        await MainActor.run { stage.app.showDiscovery(on: UIViewController()) }
        #expect(await eventually(300) { stage.app.seen.all.contains { $0.hasPrefix("discovery: unknown") } }, "\(stage.app.seen.all)")
        #expect(await stage.app.tapToPayInstaller.prepareConnection() == .success)
        await MainActor.run { stage.app.showDiscovery(on: UIViewController()) }
        #expect(await eventually(300) { stage.app.seen.all.contains("discovery: success") }, "\(stage.app.seen.all)")

        let blocked = try Stage(readerScript: ReaderScript(notices: [.prepare: [.merchantBlocked]]))
        guard case .fail(.readerNotice(.merchantBlocked), _) = await blocked.app.tapToPayInstaller.prepareConnection() else {
            Issue.record("a blocked merchant must not prepare")
            return
        }
        #expect(blocked.app.seen.all.contains("notice: merchantBlocked"))
    }
}
