import Foundation
import TapOnMobileSandbox
import SandboxTestSupport
import Testing

/// Every final outcome of a BLIK payment reaches the merchant's backend as a signed webhook, the
/// customer's silence and a refund included, and the reference libraries verify it: Stripe's Python
/// library for the default `MONEI-Signature`, `standardwebhooks` once the merchant switches to
/// Standard Webhooks. The receiver is the sandbox's webhook inbox; the payments are the SDK's, on
/// the mBank host, with the wallet as the customer's bank.
@Suite("BLIK payments' webhooks, verified by stripe and standardwebhooks", .serialized, .blocksThreads)
struct BlikWebhookTests {
    let blik = BlikPaymentTests()

    /// A BLIK payment with `code`, answered by the bank with `button` (nil: nobody answers, and
    /// the host's clock passes `blikTimeout`), followed to its end.
    func pay(
        _ phone: Phone, _ sandbox: LiveSandbox, clock: SteppedClock, code: String, button: String?, body: [String: Any] = [:]
    ) async throws -> APMTransaction {
        var events = phone.sdk.doBlikPayment(requestedAmount: 2500, tipAmount: nil, reference: nil, payCode: code).makeAsyncIterator()
        let payment = try await blik.processing(&events)
        if let button {
            _ = try await Bank(sandbox).press(button, payment.transactionId, body: body)
        } else {
            try await sandbox.backOffice("MBANK").advanceClock(seconds: 121)
        }
        return try await blik.completed(&events, clock: clock).0
    }

    @Test("approve, decline, no answer and a refund: each final outcome's webhook verifies, by Stripe's library and by standardwebhooks")
    func everyOutcomeIsSignedWebhook() async throws {
        try QRWebhookTests().requirePython()
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = try await blik.blikPhone(sandbox, clock: clock)
            let bank = Bank(sandbox)
            let merchant = try #require(sandbox.fixtures.regions["MBANK"]?.merchant(owning: "MBANK-T0101"))

            // MONEI-Signature (the default), verified by Stripe's library with the merchant's API key.
            let paid = try await pay(phone, sandbox, clock: clock, code: try await bank.code(for: "jan").code, button: "pay")
            let declined = try await pay(
                phone, sandbox, clock: clock, code: try await bank.code(for: "jan").code, button: "decline",
                body: ["reason": "declined_by_customer"])
            var refundEvents = phone.sdk.doBlikRefund(refundedTransactionId: paid.transactionId, refundAmount: 1000, reference: nil)
                .makeAsyncIterator()
            let refund = try await blik.completed(&refundEvents, clock: clock).0
            #expect(refund.transactionStatus == .CLEARED && refund.transactionType == .REFUND, "\(refund)")
            try await QRWebhookTests.expectStripeVerified(
                sandbox, [(paid, "payment.succeeded", "CLEARED"), (declined, "payment.failed", "DECLINED"), (refund, "refund.succeeded", "CLEARED")],
                apiKey: merchant.apiKey)

            // Standard Webhooks, verified by its reference library with the merchant's secret.
            let backOffice = sandbox.backOffice("MBANK")
            let hook = sandbox.sandbox.inbox.hookURL(region: "MBANK", merchant: merchant.id)
            let set = try await backOffice.call("PUT", "/backoffice/v1/merchants/\(merchant.id)/webhook", body: ["scheme": "standard", "url": hook])
            #expect(set.status == 200, "\(set)")
            let secret = try #require(try await backOffice.call("GET", "/backoffice/v1/merchants/\(merchant.id)/webhook").json["secret"] as? String)
            let unanswered = try await pay(phone, sandbox, clock: clock, code: try await bank.code(for: "jan").code, button: nil)
            #expect(unanswered.transactionStatus == .TIMEOUT, "the host's blikTimeout: \(unanswered)")
            let standard = try await QRWebhookTests.delivery(sandbox, of: unanswered.transactionId)
            let verified = try QRWebhookTests.python(QRWebhookTests.standardVerify, standard, ["SECRET": secret])
            #expect(verified.status == 0 && verified.stdout == "payment.failed TIMEOUT\n", "\(verified)")
            let wrong = try QRWebhookTests.python(
                QRWebhookTests.standardVerify, standard, ["SECRET": "whsec_" + Data(repeating: 7, count: 24).base64EncodedString()])
            #expect(wrong.status != 0)
        }
    }
}
