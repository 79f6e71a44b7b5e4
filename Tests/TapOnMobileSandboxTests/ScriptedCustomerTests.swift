import Foundation
import SandboxTestSupport
import TapOnMobileSandbox
import Testing

/// The customer a test queues on the host (`/_sandbox/customer/{terminalId}`), as a UI test does
/// from outside the app's process: the simulated reader takes one turn per card screen, before the
/// app's own script.
@Suite("SDK: the customer a test queued on the sandbox")
struct ScriptedCustomerTests {
    @Test("queued turns go first, one per card screen (a wrong PIN, a cancel, nobody at a reader test), then the app's own card again")
    func queuedTurnsGoFirst() async throws {
        try await withSandbox { sandbox in
            let phone = makePhone(sandbox, cardScripts: { _ in .tap(card("visa")) })
            let sdk = phone.sdk
            try await registerAndPrepare(phone, on: "EU-T0101", in: sandbox, environment: .sandboxEU)
            let eu = Service(name: "EU", baseURL: try sandbox.url(of: "EU"))
            let queue = "/_sandbox/customer/EU-T0101"
            expectReply(await eu.call("POST", queue, body: ["action": "tap", "card": "mc-pin", "pin": "wrong"]), 201, nil, "queue a wrong PIN")
            expectReply(await eu.call("POST", queue, body: ["action": "cancel", "afterSeconds": 1]), 201, nil, "queue a cancel")
            expectReply(await eu.call("POST", queue, body: ["action": "noTap"]), 201, nil, "queue nobody")
            #expect(await eu.call("GET", queue).array("turns")?.count == 3)

            let (_, wrong) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 1250, reference: nil), "wrong PIN")
            #expect(wrong.transactionStatus == .DECLINED && wrong.responseCode == "55" && wrong.cardType == "MASTERCARD", "\(wrong)")
            let (_, cancelled) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 900, reference: nil), "cancel")
            #expect(cancelled.transactionStatus == .USER_CANCELLED, "\(cancelled)")
            #expect(await collect(sdk.doCardReaderTest(currency: "EUR")).last == .success(.completed(false)), "nobody tapped the reader test")
            #expect(await eu.call("GET", queue).array("turns")?.isEmpty == true, "each screen took one turn")

            let (_, approved) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 700, reference: nil), "the app's card")
            #expect(approved.transactionStatus == .CLEARED && approved.cardType == "VISA", "\(approved)")
        }
    }

    @Test("a scripted DCC choice on a container: the SDK shows the offer and finishes the sale in the card's currency; without a container the app gets DCC_REQUIRED")
    func scriptedDCCChoice() async throws {
        try await withSandbox { sandbox in
            let screens = ScreenRecorder()
            let phone = makePhone(sandbox, onSDKScreen: { screens.add($0) })
            let sdk = phone.sdk
            try await registerAndPrepare(phone, on: "EU-T0101", in: sandbox, environment: .sandboxEU)
            let eu = Service(name: "EU", baseURL: try sandbox.url(of: "EU"))
            let turn: [String: Any] = ["action": "tap", "card": "visa-us-dcc", "dccOfferAccepted": true]
            expectReply(await eu.call("POST", "/_sandbox/customer/EU-T0101", body: turn), 201, nil, "queue a US card that takes the offer")

            let container = await MainActor.run { UIViewController() }
            let (events, paid) = try await transaction(
                sdk.doPayment(currency: "EUR", requestedAmount: 2000, reference: nil, container: container, paymentSolutionReceiptHandling: false), "dcc")
            #expect(paid.transactionStatus == .CLEARED && paid.dccStatus == .ACCEPTED && paid.dccCurrency?.code == "USD", "\(paid)")
            #expect(events == [.displayingCardReader, .processing, .finishProcessing, .completed(paid)], "\(events)")
            let offers = screens.all.compactMap { screen -> TransactionDetail? in
                if case .dccOffer(let offer) = screen { return offer } else { return nil }
            }
            #expect(offers.count == 1 && offers.first?.transactionStatus == .DCC_REQUIRED && offers.first?.transactionId == paid.transactionId, "\(screens.all)")

            // No container: the SDK draws nothing, and the choice is the app's.
            expectReply(await eu.call("POST", "/_sandbox/customer/EU-T0101", body: turn), 201, nil, "queue it again")
            let (_, offer) = try await transaction(sdk.doPayment(currency: "EUR", requestedAmount: 2000, reference: nil), "dcc, no container")
            #expect(offer.transactionStatus == .DCC_REQUIRED && offer.dccStatus == .OFFERED, "\(offer)")
            let declined = try value(await sdk.doMakeTransactionFinishDCC(transactionId: nil, dccOfferAccepted: false), "finish DCC")
            #expect(declined.transactionStatus == .CLEARED && declined.dccStatus == .DECLINED, "\(declined)")
        }
    }
}
