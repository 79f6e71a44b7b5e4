import Foundation
import HostTestSupport
import TapOnMobileSandbox
import SandboxTestSupport
import Testing

/// The seed's examples (SeedExamples.swift), run as written on `TapOnMobile.shared` against a live
/// sandbox: register, log in, prepare, pay with a container, refund, reverse, every read, receipt,
/// secure code, log out, unregister. Serialized, and each test takes the process's turn of
/// `TapOnMobile.shared` (one device for the process; the sample app's tests use it too).
@Suite("The seed's examples against a live sandbox", .serialized, .vendorApp("TapOnMobile.shared"))
@MainActor
struct SeedExampleTests {
    /// Runs `example` and waits for the line it prints that contains `text`.
    func expectPrinted(
        _ text: String, sourceLocation: SourceLocation = #_sourceLocation, _ example: () -> Void
    ) async -> String? {
        let mark = printed.count
        example()
        let line = await printed.line(after: mark, containing: text)
        #expect(line != nil, "no line containing \"\(text)\"; printed: \(printed.lines(after: mark))", sourceLocation: sourceLocation)
        return line
    }

    /// Waits for `condition` on the examples' state, which their sinks change on the main queue.
    func eventually(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
    ) async {
        let held = await SandboxTestSupport.eventually(90) { condition() }
        #expect(held, "\(what); printed last: \(printed.lines(after: max(0, printed.count - 5)))", sourceLocation: sourceLocation)
    }

    /// The id of the one order the wallet has open (the one an example just made), waiting for it to appear.
    func openOrder(_ wallet: Wallet, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let found = await eventuallyValue(90) {
            let reply = await Service(name: "wallet", baseURL: wallet.url).call("GET", "/api/orders?status=open")
            return (reply.object["orders"] as? [[String: Any]])?.first?["orderId"] as? String
        }
        if let found { return found }
        Issue.record("the wallet has no open order", sourceLocation: sourceLocation)
        throw BackOfficeFailure(description: "no open order")
    }

    @Test("the seed's examples, unchanged but for the import, run against a sandbox and report what the seed says they do")
    func seedExamplesRunAsWritten() async throws {
        // The seed's example judges the session with the phone's `Date()`: the host's clock runs
        // with real time here, as a real host's does.
        let sandbox = try LiveSandbox(clocksStandStill: false, regions: ["EU"])
        defer { sandbox.stop() }
        let directory = TemporaryDirectory()
        let screens = ScreenRecorder()
        let qrClock = SteppedClock()
        TapOnMobile.shared.configure(
            SandboxConfiguration(
                endpointOverrides: sandbox.endpoints, endpointsFile: nil, deviceDirectory: directory.file("device"),
                clock: ManualReaderClock(), readerScript: ReaderScript(preparationSeconds: 2), cardScripts: { _ in .tap(card("visa")) },
                onSDKScreen: { screens.add($0) }, apmClock: qrClock))
        // The seed gives initialization as a usage block only.
        _ = try value(await TapOnMobile.shared.initialization(environment: .sandboxEU), "initialization")
        let app = SeedExamples()
        let start = printed.count

        // Merchant-portal activation: challenge → the portal's back-office code → verify → end.
        _ = await expectPrinted("Begin device registration: Success.") { app.example14_beginRegistration() }
        #expect(!app.registerCode.isEmpty)
        app.inputCode = try await sandbox.backOffice("EU").confirm(challenge: app.registerCode, terminal: "EU-T0101")
        app.pin = "2468"
        _ = await expectPrinted("Finishing code verification: true.") { app.example20_verifyChallengeCode() }
        _ = await expectPrinted("Finishing device registration: Success.") { app.example17_endRegistration() }
        _ = await expectPrinted("Device already registered") { app.example110_isDeviceRegistered() }
        _ = await expectPrinted("Success login:") { app.example23_doLogin() }
        let mark = printed.count
        let listener = ExampleClass()
        #expect(await printed.line(after: mark, containing: "Prepare device completed.") != nil)
        #expect(await printed.line(after: mark, containing: "Prepare device progress: 100%") != nil)
        withExtendedLifetime(listener) {}

        // Helpers and reads of the session.
        _ = await expectPrinted("Auto login is enabled") { app.example64_getInfoInit() }
        _ = await expectPrinted("Terminal id: EU-T0101") { app.example116_getTerminalID() }
        _ = await expectPrinted("SDK Version: sandbox-") { app.example113_getSDKVersion() }
        _ = await expectPrinted("Current session is still available") { app.example119_getSessionExpiration() }
        _ = await expectPrinted("Success - ") { app.example103_loadSupportNumber() }
        _ = await expectPrinted("Language updated successfully") { app.example127_updateLanguage() }
        _ = await expectPrinted("request location - Success") { app.example107_requestLocation() }
        app.example81_getTerminalInfo()
        await eventually("terminal info") { app.sdkFeedback.contains { $0.hasPrefix("Terminal Information:") && $0.contains("EU-T0101") } }

        // Two sales through the SDK's own screens (a container): the progress and result screens are shown.
        app.rootViewController = UIViewController()
        app.example32_doPayment()
        await eventually("sale A") { app.sdkFeedback.contains { $0.contains("Finish: Success. Payment transaction id:") } }
        let saleA = app.transactionId
        #expect(app.sdkFeedback.contains(" - update: displayingCardReader") && app.sdkFeedback.contains(" - update: finishProcessing"))
        guard case .result(let shown)? = screens.all.last else {
            Issue.record("no result screen: \(screens.all)")
            return
        }
        #expect(screens.all.first == .transactionProgress && shown.transactionId == saleA && shown.transactionStatus == .CLEARED)
        app.sdkFeedback = []
        app.example32_doPayment()
        await eventually("sale B") { app.sdkFeedback.contains { $0.contains("Finish: Success. Payment transaction id:") } }
        let saleB = app.transactionId
        #expect(saleB != saleA && !saleA.isEmpty)

        // A can no longer be reversed (B is the latest): refund it with the card; then reverse B.
        app.transactionId = saleA
        app.example35_doRefund()
        await eventually("refund of A") { app.sdkFeedback.contains { $0.contains("Finish: Success. Refund transaction id:") } }
        #expect(app.transactionId != saleA)
        app.transactionId = saleB
        _ = await expectPrinted("Success reversal:") { app.example38_doReversal() }

        // Reads of the history.
        _ = await expectPrinted("Success get last transaction:") { app.example61_getLastTransaction() }
        app.example67_fetchTransactionsHistory()
        await eventually("history") { app.transactions.history.count == 3 }
        app.example71_fetchTransactionsDetails()
        await eventually("details of B") { app.transactionDetail?.transactionId == saleB }
        #expect(app.transactionDetail?.transactionStatus == .CANCELLED)
        _ = await expectPrinted("Transaction Detail Error:") { app.example70_fetchTransactionsDetailsUsage() }
        app.example74_fetchTransactionsCount()
        await eventually("count below one page") { app.lastPageReached }
        app.example78_getTransactionsStatistics(fromDate: Date(timeIntervalSinceNow: -86_400), toDate: Date(timeIntervalSinceNow: 86_400))
        await eventually("statistics") { app.sdkFeedback.contains { $0.hasPrefix("Success - Statistics from") } }
        app.example91_validateTransaction()
        await eventually("validation") { app.sdkFeedback.contains("Success - Transaction request is valid") }
        app.transactionId = saleB
        app.example94_getDigitalReceipt()
        await eventually("e-mail receipt") { app.sdkFeedback.contains { $0.hasPrefix("Success - Receipt Confirmation Status:") } }
        _ = await expectPrinted("Card Test result: true") { app.example85_doCardReaderTest() }

        // QR: a payment the customer pays in the wallet, a partial refund of it (the example's
        // spelling doQRRefund), and a second payment cancelled before anyone pays.
        let wallet = Wallet(sandbox)
        let stepper = Task {
            while !Task.isCancelled {
                await qrClock.untilWaiting()
                qrClock.advance(by: 5)
                try? await Task.sleep(nanoseconds: 50_000_000)
            }
        }
        defer { stepper.cancel() }
        app.rootViewController = nil
        app.sdkFeedback = []
        app.example42_doQRPayment()
        let paying = try await openOrder(wallet)
        try await wallet.press("pay", paying)
        await eventually("QR payment") { app.sdkFeedback.contains(" - Finish: Success. Payment transaction id: \(paying)") }
        #expect(app.transactionId == paying)
        app.amount = "500"
        app.example48_doQRRefund()
        await eventually("QR refund") { app.sdkFeedback.contains { $0.hasPrefix(" - Finish: Success. Refunded transaction id:") } }
        #expect(app.transactionId != paying)
        app.example42_doQRPayment()
        let pending = try await openOrder(wallet)
        app.transactionId = pending
        app.reason = "customer left"
        app.example45_cancelQRPayment()
        await eventually("QR cancel") { app.sdkFeedback.contains(" - Finish: Success. Cancelled payment transaction id: \(pending)") }
        await eventually("the cancelled payment completes") {
            app.sdkFeedback.contains(" - Finish: Success. Payment transaction id: \(pending)")
        }
        #expect(app.sdkFeedback.contains { $0.hasPrefix(" - update: displayQR") }, "\(app.sdkFeedback)")
        stepper.cancel()
        app.amount = "1250"

        // Secure code, logout, unregistration.
        app.oldSecretCode = "2468"
        app.newSecretCode = "1357"
        _ = await expectPrinted("Success - Updated secret code") { app.example97_updateSecretCode() }
        _ = await expectPrinted("Success logout:") { app.example26_doLogout() }
        _ = await expectPrinted("Success unregistering the device.") { app.example88_unregister() }
        _ = await expectPrinted("Device is not registered.") { app.example110_isDeviceRegistered() }
        // No example reported an error but the one asked for an unknown transaction on purpose.
        let errors = printed.lines(after: start).filter { $0.contains("Error") && !$0.hasPrefix("Transaction Detail Error:") }
        #expect(errors.isEmpty, "\(errors)")
        #expect(!app.sdkFeedback.contains { $0.contains("Error") }, "\(app.sdkFeedback)")
        withExtendedLifetime(directory) {}
    }

    @Test("the seed's BLIK examples (code blocks 50–55) run as written on an mBank terminal: a bank app code approved, refunded")
    func blikExamplesRunAsWritten() async throws {
        let sandbox = try LiveSandbox(regions: ["MBANK"])
        defer { sandbox.stop() }
        let directory = TemporaryDirectory()
        let clock = SteppedClock()
        TapOnMobile.shared.configure(
            SandboxConfiguration(
                endpointOverrides: sandbox.endpoints, endpointsFile: nil, deviceDirectory: directory.file("device"),
                clock: ManualReaderClock(), readerScript: ReaderScript(preparationSeconds: 2), apmClock: clock))
        let phone = Phone(sdk: TapOnMobile.shared, directory: directory, clock: ManualReaderClock())
        try await registerAndPrepare(phone, on: "MBANK-T0101", in: sandbox, environment: .sandboxMBANK)
        let stepper = Task {
            while !Task.isCancelled {
                await clock.untilWaiting()
                clock.advance(by: 3)
                try? await Task.sleep(nanoseconds: 50_000_000)
            }
        }
        defer { stepper.cancel() }
        let bank = Bank(sandbox)
        let app = SeedExamples()
        app.amount = "4500"
        app.payCode = try await bank.code(for: "jan").code
        app.example52_doBlikPayment()
        let request = try await eventuallyRequest(bank, "jan")
        try await bank.press("pay", request)
        await eventually("BLIK payment") { app.sdkFeedback.contains(" - Finish: Success. Payment transaction id: \(request)") }
        #expect(app.sdkFeedback.contains { $0.hasPrefix(" - Processing: Success. Processing Payment transaction id:") }, "\(app.sdkFeedback)")
        #expect(app.transactionId == request)
        app.amount = "1000"
        app.example55_doBlikRefund()
        await eventually("BLIK refund") { app.sdkFeedback.contains { $0.hasPrefix(" - Finish: Success. Refunded transaction id:") } }
        #expect(app.transactionId != request)
        #expect(try await bank.customer("jan").balance == 500_000 - 4500 + 1000)
        #expect(!app.sdkFeedback.contains { $0.contains("Error") }, "\(app.sdkFeedback)")
        _ = try value(await TapOnMobile.shared.unregister(), "unregister")
    }

    /// The id of the customer's first pending confirmation request, waiting for it to appear.
    func eventuallyRequest(_ bank: Bank, _ customer: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let found = await eventuallyValue(90) { try? await bank.requests(for: customer).first?["orderId"] as? String }
        if let found { return found }
        Issue.record("the bank app has no request for \(customer)", sourceLocation: sourceLocation)
        throw BackOfficeFailure(description: "no request")
    }
}
