import LockedValue
import Foundation
import HostTestSupport
import MoneiTapToPay
import SimulatedReader
import SandboxTestSupport
import Testing

/// MONEI's device library against the MONEI host, through an app written from the seed's example
/// (``SeedConsumer``) and through the calls themselves. Serialized: `TapToPay` is one app in one
/// process, and this suite is the only one that uses it.
@Suite("MONEI Tap to Pay on the device", .serialized, .vendorApp("MONEI"))
@MainActor
struct TapToPayTests {
    @Test("the seed's app on a supported phone: approved, declined, busy, and outcomeUnknown for a refused callback URL and a lost answer")
    func theSeedsAppPays() async throws {
        let host = try MoneiDeviceHost()
        defer { host.stop() }
        launch(host)
        let app = SeedConsumer(fetchPosToken: host.fetchPosToken)
        await app.startTapToPay()
        #expect(app.shown.isEmpty, "prepare: \(app.shown)")

        await app.pay(amountInCents: 1050, orderId: "order-1")
        guard case .approved(let approved) = app.shown.last else {
            Issue.record("not approved: \(app.shown)")
            return
        }
        #expect(approved.orderId == "order-1" && approved.cardBrand == "visa" && approved.last4?.count == 4, "\(approved)")
        // The backend reconciles the result the app showed by its id.
        let reconciled = await host.payment(approved.paymentId)
        #expect(reconciled.status == 200 && reconciled.string("status") == "SUCCEEDED" && reconciled.string("orderId") == "order-1",
                "\(reconciled)")

        // 42.05 is the issuer's decline: a result with a payment id, not an error.
        await app.pay(amountInCents: 4205, orderId: "order-2")
        guard case .declined(let declined) = app.shown.last else {
            Issue.record("not declined: \(app.shown)")
            return
        }
        #expect(declined.orderId == "order-2" && !declined.paymentId.isEmpty && declined.paymentId != approved.paymentId)
        #expect(await host.payment(declined.paymentId).string("status") == "FAILED")

        // Two taps on the pay button: one payment, one busy.
        var mark = app.shown.count
        async let first: Void = app.pay(amountInCents: 1200, orderId: "order-3")
        async let second: Void = app.pay(amountInCents: 1200, orderId: "order-3")
        _ = await (first, second)
        let both = app.shown(since: mark)
        #expect(both.count == 2 && both.contains(.error(.busy)) && both.contains { if case .approved = $0 { true } else { false } },
                "\(both)")

        // The seed's callback URL now resolves to a private address: MONEI refuses it after the card
        // read and makes no payment; the app shows the order as pending.
        host.resolve("example.com", to: "10.0.0.1")
        await app.pay(amountInCents: 1300, orderId: "order-4")
        #expect(app.shown.last == .pending("order-4"), "\(app.shown)")
        host.resolve("example.com", to: "127.0.0.1")

        // The host takes the payment and the answer is lost on the way.
        await host.dropNextPaymentAnswer()
        await app.pay(amountInCents: 1400, orderId: "order-5")
        #expect(app.shown.last == .pending("order-5"), "\(app.shown)")

        // Nothing was retried and nothing is stuck: the next order pays.
        mark = app.shown.count
        await app.pay(amountInCents: 1500, orderId: "order-6")
        #expect(app.shown(since: mark).count == 1 && { if case .approved = app.shown.last { true } else { false } }(), "\(app.shown)")
    }

    @Test("the seed's app where it cannot pay: notSupported, locationDenied, locationTimeout after 15 s, invalidToken, tokenExpired after 24 h")
    func theSeedsAppMeetsEachError() async throws {
        let host = try MoneiDeviceHost()
        defer { host.stop() }

        // An iPhone X: the app hides Tap to Pay, and a payment anyway is notSupported.
        launch(host) { $0.device = Device(model: "iPhone10,3", osVersion: "18.5") }
        var app = SeedConsumer(fetchPosToken: host.fetchPosToken)
        #expect(!TapToPay.isSupported)
        await app.startTapToPay()
        #expect(app.shown.isEmpty, "an unsupported phone asks for no token: \(app.shown)")
        await app.pay(amountInCents: 1050, orderId: "o-unsupported")
        #expect(app.shown == [.error(.notSupported)])

        // The user says no to location.
        launch(host) { $0.location = LocationScript(authorization: .notDetermined, answer: .denied, fix: .country("ES", after: 0)) }
        app = SeedConsumer(fetchPosToken: host.fetchPosToken)
        await app.startTapToPay()
        #expect(app.shown == [.error(.locationDenied)])
        // An app without NSLocationWhenInUseUsageDescription: iOS asks nothing, and prepare refuses at once.
        launch(host) { $0.location = LocationScript(authorization: .notDetermined, answerAfter: 3600, hasUsageDescription: false) }
        app = SeedConsumer(fetchPosToken: host.fetchPosToken)
        await app.startTapToPay()
        #expect(app.shown == [.error(.locationDenied)])

        // No fix: prepare gives up after 15 s on the clock, and so does the first payment.
        let clock = launch(host) { $0.location = LocationScript(authorization: .authorized, fix: .never) }
        let started = clock.now()
        app = SeedConsumer(fetchPosToken: host.fetchPosToken)
        await app.startTapToPay()
        #expect(app.shown == [.error(.paymentFailed(code: .locationTimeout))])
        #expect(clock.now().timeIntervalSince(started) >= 15)

        // A token MONEI did not issue.
        launch(host)
        let good = try await host.fetchPosToken()
        app = SeedConsumer(fetchPosToken: { String(good.dropLast(2)) + (good.hasSuffix("AA") ? "BB" : "AA") })
        await app.startTapToPay()
        #expect(app.shown == [.error(.invalidToken)])

        // A token from yesterday: prepare, then 24 hours pass on the host's clock.
        launch(host)
        app = SeedConsumer(fetchPosToken: host.fetchPosToken)
        await app.startTapToPay()
        host.advanceClock(hours: 24.1)
        await app.pay(amountInCents: 1050, orderId: "o-expired")
        #expect(app.shown == [.error(.tokenExpired)])
        // The app renews the token (the seed: prepare again after each renewal) and pays.
        await app.startTapToPay()
        await app.pay(amountInCents: 1050, orderId: "o-renewed")
        #expect(app.shown.count == 2 && { if case .approved = app.shown.last { true } else { false } }(), "\(app.shown)")
    }

    @Test("before anything is sent: invalidArgument for an amount of 0 or an empty orderId, notPrepared without prepare, and after a new launch")
    func argumentsAndPreparation() async throws {
        let host = try MoneiDeviceHost()
        defer { host.stop() }
        launch(host)
        await #expect(throws: TapToPayError.notPrepared) {
            _ = try await TapToPay.acceptPayment(amount: 1050, orderId: "o-1", callbackUrl: nil)
        }
        try await TapToPay.prepare(token: try await host.fetchPosToken())
        for (amount, orderId) in [(0, "o-1"), (-5, "o-1"), (1050, ""), (1050, "  ")] {
            await #expect(throws: TapToPayError.invalidArgument, "\(amount) \(orderId)") {
                _ = try await TapToPay.acceptPayment(amount: amount, orderId: orderId, callbackUrl: nil)
            }
        }
        // MONEI's own limit on the point of sale is an invalid argument too.
        await #expect(throws: TapToPayError.invalidArgument) {
            _ = try await TapToPay.acceptPayment(amount: 100_000_000, orderId: "o-big", callbackUrl: nil)
        }
        let paid = try await TapToPay.acceptPayment(amount: 1050, orderId: "o-2", callbackUrl: nil)
        #expect(paid.status == .approved)
        // The token is in memory only: a new launch must prepare again.
        launch(host)
        await #expect(throws: TapToPayError.notPrepared) {
            _ = try await TapToPay.acceptPayment(amount: 1050, orderId: "o-3", callbackUrl: nil)
        }
    }

    @Test("Apple's terms on the first payment of an unlinked account, never in prepare; declined terms take no payment")
    func termsOnTheFirstPayment() async throws {
        let host = try MoneiDeviceHost()
        defer { host.stop() }
        let visa = card("visa-es")
        let cardScreens = LockedValueBox(0)
        launch(host) { sandbox in
            sandbox.termsResponses = [.deny]
            sandbox.cardScripts = { _ in
                cardScreens.withLockedValue { $0 += 1 }
                return .tap(visa)
            }
        }
        try await TapToPay.prepare(token: try await host.fetchPosToken())
        await #expect(throws: TapToPayError.termsDeclined) {
            _ = try await TapToPay.acceptPayment(amount: 1050, orderId: "o-1", callbackUrl: nil)
        }
        #expect(cardScreens.withLockedValue { $0 } == 0, "no card screen after declined terms")
        let result = try await TapToPay.acceptPayment(amount: 1050, orderId: "o-1", callbackUrl: nil)
        #expect(result.status == .approved, "accepted the second time")
        #expect(cardScreens.withLockedValue { $0 } == 1)

        // A linked account sees no terms at all.
        launch(host) {
            $0.accountLinked = true
            $0.termsResponses = [.deny]
        }
        try await TapToPay.prepare(token: try await host.fetchPosToken())
        #expect(try await TapToPay.acceptPayment(amount: 1050, orderId: "o-2", callbackUrl: nil).status == .approved)
    }

    @Test("the card screen: a cancel or no tap is cancelled; back from the background the SDK prepares the reader by itself")
    func theCardScreen() async throws {
        let host = try MoneiDeviceHost()
        defer { host.stop() }
        let visa = card("visa-es")
        let scripts = LockedValueBox<[CardScript]>([.cancel(after: 3), .noTap(), .background(after: 2), .tap(visa)])
        launch(host, tap: nil) { sandbox in
            sandbox.cardScripts = { _ in scripts.withLockedValue { $0.isEmpty ? nil : $0.removeFirst() } }
        }
        try await TapToPay.prepare(token: try await host.fetchPosToken())
        for step in ["cancel", "no tap", "background"] {
            await #expect(throws: TapToPayError.cancelled, "\(step)") {
                _ = try await TapToPay.acceptPayment(amount: 1050, orderId: "o-\(step)", callbackUrl: nil)
            }
        }
        #expect(await TapToPaySandbox.reader.needsPrepare, "the background closed the reader's connection")
        await TapToPaySandbox.appWillEnterForeground()
        let result = try await TapToPay.acceptPayment(amount: 1050, orderId: "o-tap", callbackUrl: nil)
        #expect(result.status == .approved)
    }

    @Test("a customer a test queued on the host for the point of sale goes before the app's script: cancelled, then the app's card pays")
    func queuedCustomer() async throws {
        let host = try MoneiDeviceHost()
        defer { host.stop() }
        launch(host)  // the app's own script: a Visa tap
        try await TapToPay.prepare(token: try await host.fetchPosToken())
        let queued = await host.host.service.call("POST", "/_sandbox/customer/MONEI-T0101", body: ["action": "cancel", "afterSeconds": 1])
        #expect(queued.status == 201, "\(queued)")
        await #expect(throws: TapToPayError.cancelled, "the queued customer closes the card screen") {
            _ = try await TapToPay.acceptPayment(amount: 1050, orderId: "o-queued", callbackUrl: nil)
        }
        #expect(await host.host.service.call("GET", "/_sandbox/customer/MONEI-T0101").array("turns")?.isEmpty == true)
        let result = try await TapToPay.acceptPayment(amount: 1050, orderId: "o-app", callbackUrl: nil)
        #expect(result.status == .approved)
    }

    @Test("isSupported follows MONEI's rule: iPhone XS or newer with iOS 18.5 or later; the iOS Simulator counts as an iPhone")
    func support() async throws {
        let host = try MoneiDeviceHost()
        defer { host.stop() }
        let cases: [(String, String, Bool)] = [
            ("iPhone11,2", "18.5", true), ("iPhone11,8", "19.0", true), ("iPhone17,1", "18.5.1", true),
            ("iPhone11,2", "18.4", false), ("iPhone10,6", "18.5", false), ("iPad13,1", "18.5", false), ("arm64", "18.5", true), ("arm64", "18.4", false),
        ]
        for (model, os, supported) in cases {
            launch(host) { $0.device = Device(model: model, osVersion: os) }
            #expect(TapToPay.isSupported == supported, "\(model) \(os)")
            if !supported {
                await #expect(throws: TapToPayError.notSupported) { try await TapToPay.prepare(token: "t") }
                await #expect(throws: TapToPayError.notSupported) { try await TapToPay.presentEducation(from: UIViewController()) }
            }
        }
    }

    @Test("presentEducation shows Apple's screens on a supported phone; a failure to show them is an error")
    func education() async throws {
        let host = try MoneiDeviceHost()
        defer { host.stop() }
        launch(host) { $0.readerScript.educationFailures = [.unknown] }
        await #expect(throws: TapToPayError.paymentFailed(code: .unknown)) { try await TapToPay.presentEducation(from: UIViewController()) }
        try await TapToPay.presentEducation(from: UIViewController())
        #expect(await TapToPaySandbox.reader.educationPresentations == 1)
    }

    @Test("the endpoint comes from sandbox up's endpoints.json; a MONEI host that cannot be reached fails prepare with readerNotReady")
    func endpoints() async throws {
        let directory = TemporaryDirectory()
        let file = directory.file("endpoints.json")
        try Data(#"{"environments": {"MONEI": "http://127.0.0.1:1"}}"#.utf8).write(to: file)
        var sandbox = TapToPaySandbox()
        sandbox.endpointsFile = file
        #expect(sandbox.resolvedEndpoint() == URL(string: "http://127.0.0.1:1"))
        sandbox.clock = ManualReaderClock()
        TapToPaySandbox.launch(sandbox)
        await #expect(throws: TapToPayError.paymentFailed(code: .readerNotReady)) { try await TapToPay.prepare(token: "t") }
        sandbox.endpointsFile = directory.file("missing.json")
        #expect(sandbox.resolvedEndpoint() == TapToPaySandbox.defaultEndpoint)
    }
}
