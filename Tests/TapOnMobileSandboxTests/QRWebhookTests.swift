import Foundation
import TapOnMobileSandbox
import SandboxTestSupport
import Testing

/// Every final outcome of a QR payment reaches the merchant's backend as a signed webhook, expiry
/// and cancel included, and the reference libraries verify it: Stripe's Python library for the
/// default `MONEI-Signature` (the same `t=,v1=` construction), `standardwebhooks` once the merchant
/// switches to Standard Webhooks. The receiver is the sandbox's webhook inbox.
@Suite("QR payments' webhooks, verified by stripe and standardwebhooks", .blocksThreads)
struct QRWebhookTests {
    /// The inbox's deliveries for `transactionId` (its `data.paymentId`).
    static func deliveries(_ sandbox: LiveSandbox, of transactionId: String) async -> [[String: Any]] {
        let reply = await Service(name: "inbox", baseURL: sandbox.sandbox.inbox.url).call("GET", "/api/events")
        return (reply.object["events"] as? [[String: Any]] ?? []).filter { event in
            let body = (event["body"] as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            return (body?["data"] as? [String: Any])?["paymentId"] as? String == transactionId
        }
    }

    /// Waits (real time, up to 20 s) for the delivery of `transactionId`'s final outcome.
    static func delivery(_ sandbox: LiveSandbox, of transactionId: String, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> [String: Any]
    {
        if let found = await eventuallyValue(90, { await deliveries(sandbox, of: transactionId).first }) { return found }
        Issue.record("no webhook for \(transactionId)", sourceLocation: sourceLocation)
        throw BackOfficeFailure(description: "no webhook")
    }

    /// Runs Python `code` with the delivery's body and headers (and `values`) in its environment.
    static func python(_ code: String, _ delivery: [String: Any], _ values: [String: String]) throws -> ProcessOutput {
        let headers = String(decoding: try JSONSerialization.data(withJSONObject: delivery["headers"] ?? [:]), as: UTF8.self)
        let body = Data(((delivery["body"] as? String) ?? "").utf8).base64EncodedString()
        return try SpawnedProcess.run("python3", ["-c", code], environment: values.merging(["HEADERS": headers, "BODY": body]) { $1 })
    }

    static let stripeVerify = """
        import base64, json, os, stripe
        headers = json.loads(os.environ["HEADERS"])
        body = base64.b64decode(os.environ["BODY"])
        stripe.WebhookSignature.verify_header(body, headers["monei-signature"], os.environ["KEY"], 300)
        print(json.loads(body)["type"], json.loads(body)["data"]["status"])
        """

    static let standardVerify = """
        import base64, json, os, standardwebhooks
        event = standardwebhooks.Webhook(os.environ["SECRET"]).verify(base64.b64decode(os.environ["BODY"]), json.loads(os.environ["HEADERS"]))
        print(event["type"], event["data"]["status"])
        """

    /// A QR payment whose customer does `button` (nil: nothing) in the wallet, followed to its end.
    func pay(
        _ phone: Phone, clock: SteppedClock, wallet: Wallet, button: String?, body: [String: Any] = [:], cancel: Bool = false,
        hostClock: LiveSandbox? = nil
    ) async throws -> APMTransaction {
        var events = phone.sdk.doQRPayment(requestedAmount: 1500, tipAmount: nil, reference: nil).makeAsyncIterator()
        _ = await events.next()
        guard case .success(.displayQR(let order))? = await events.next() else { throw BackOfficeFailure(description: "no QR") }
        if let button { try await wallet.press(button, order.transactionId, body: body) }
        if cancel { _ = try value(await phone.sdk.cancelQRPayment(transactionId: order.transactionId, reason: "left"), "cancel") }
        if let hostClock { try await hostClock.backOffice("EU").advanceClock(seconds: 301) }
        let stepper = Task {
            while !Task.isCancelled {
                await clock.untilWaiting()
                clock.advance(by: hostClock == nil ? 5 : 400)
                try? await Task.sleep(nanoseconds: 50_000_000)
            }
        }
        defer { stepper.cancel() }
        while let result = await events.next() {
            if case .success(.completed(let final)) = result { return final }
        }
        throw BackOfficeFailure(description: "no completion")
    }

    @Test("approve, decline, the wallet's expire, cancel, a refund and the host's expiry: each final outcome's webhook verifies")
    func everyOutcomeIsSignedWebhook() async throws {
        try requirePython()
        try await withSandbox { sandbox in
            let clock = SteppedClock()
            let phone = makePhone(sandbox)
            var configuration = phone.sdk.configuration
            configuration.apmClock = clock
            phone.sdk.configure(configuration)
            try await registerAndPrepare(phone, on: "EU-T0101", in: sandbox, environment: .sandboxEU)
            let wallet = Wallet(sandbox)
            let merchant = try #require(sandbox.fixtures.regions["EU"]?.merchant(owning: "EU-T0101"))

            // MONEI-Signature (the default), verified by Stripe's library with the merchant's API key.
            let paid = try await pay(phone, clock: clock, wallet: wallet, button: "pay")
            let declined = try await pay(phone, clock: clock, wallet: wallet, button: "decline", body: ["reason": "declined_by_customer"])
            let expired = try await pay(phone, clock: clock, wallet: wallet, button: "expire")
            let cancelled = try await pay(phone, clock: clock, wallet: wallet, button: nil, cancel: true)
            var refundEvents = phone.sdk.doQRRefund(refundedTransactionId: paid.transactionId, refundAmount: 500, reference: nil).makeAsyncIterator()
            guard case .success(.processing(let refund))? = await refundEvents.next() else { Issue.record("no refund"); return }
            let expected: [(APMTransaction, String, String)] = [
                (paid, "payment.succeeded", "CLEARED"), (declined, "payment.failed", "DECLINED"), (expired, "payment.failed", "TIMEOUT"),
                (cancelled, "payment.canceled", "USER_CANCELLED"),
            ]
            try await Self.expectStripeVerified(sandbox, expected, apiKey: merchant.apiKey)
            let stepper = Task {
                while !Task.isCancelled {
                    await clock.untilWaiting()
                    clock.advance(by: 5)
                    try? await Task.sleep(nanoseconds: 50_000_000)
                }
            }
            while let result = await refundEvents.next() { if case .success(.completed) = result { break } }
            stepper.cancel()
            let refunded = try await Self.delivery(sandbox, of: refund.transactionId)
            let verifiedRefund = try Self.python(Self.stripeVerify, refunded, ["KEY": merchant.apiKey])
            #expect(verifiedRefund.stdout == "refund.succeeded CLEARED\n", "\(verifiedRefund)")

            // Standard Webhooks, verified by its reference library with the merchant's secret.
            let backOffice = sandbox.backOffice("EU")
            let hook = sandbox.sandbox.inbox.hookURL(region: "EU", merchant: merchant.id)
            let set = try await backOffice.call("PUT", "/backoffice/v1/merchants/\(merchant.id)/webhook", body: ["scheme": "standard", "url": hook])
            #expect(set.status == 200, "\(set)")
            let secret = try #require(try await backOffice.call("GET", "/backoffice/v1/merchants/\(merchant.id)/webhook").json["secret"] as? String)
            let timedOut = try await pay(phone, clock: clock, wallet: wallet, button: nil, hostClock: sandbox)
            #expect(timedOut.transactionStatus == .TIMEOUT, "the host's apmTimeout: \(timedOut)")
            let standard = try await Self.delivery(sandbox, of: timedOut.transactionId)
            let verified = try Self.python(Self.standardVerify, standard, ["SECRET": secret])
            #expect(verified.status == 0 && verified.stdout == "payment.failed TIMEOUT\n", "\(verified)")
            let wrong = try Self.python(Self.standardVerify, standard, ["SECRET": "whsec_" + Data(repeating: 7, count: 24).base64EncodedString()])
            #expect(wrong.status != 0)
        }
    }

    /// Each transaction's final status, and its webhook: the inbox found the `MONEI-Signature`
    /// valid, Stripe's library verifies it with the merchant's API key (`type status` as the event
    /// says), and refuses it with another key.
    static func expectStripeVerified(
        _ sandbox: LiveSandbox, _ expected: [(APMTransaction, String, String)], apiKey: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for (transaction, type, status) in expected {
            #expect(transaction.transactionStatus.rawValue == status, "\(transaction)", sourceLocation: sourceLocation)
            let delivery = try await Self.delivery(sandbox, of: transaction.transactionId, sourceLocation: sourceLocation)
            #expect(delivery["signature"] as? String == "valid", "\(delivery)", sourceLocation: sourceLocation)
            let verified = try python(stripeVerify, delivery, ["KEY": apiKey])
            #expect(verified.status == 0 && verified.stdout == "\(type) \(status)\n", "\(type) \(status): \(verified)", sourceLocation: sourceLocation)
            let tampered = try python(stripeVerify, delivery, ["KEY": "sk_test_not_the_key"])
            #expect(tampered.status != 0 && tampered.stderr.contains("SignatureVerificationError"), sourceLocation: sourceLocation)
        }
    }

    /// The Python packages scripts/setup installs.
    func requirePython() throws {
        let check = try SpawnedProcess.run("python3", ["-c", "import stripe, standardwebhooks"])
        try #require(check.status == 0, "python3 lacks stripe or standardwebhooks: run scripts/setup (\(check))")
    }
}
