import Foundation
import SandboxTestSupport
import Testing
import WebhookSignature

/// Every key of the documented payload (`WebhookEvent` / `WebhookPaymentData` in
/// openapi/environment-host.yaml, docs/webhooks.md): all written, `null` where there is no value.
let eventKeys: Set<String> = ["id", "type", "created", "livemode", "data"]
let dataKeys: Set<String> = [
    "paymentId", "orderId", "type", "status", "amount", "tipAmount", "currency", "cardBrand", "last4", "responseCode", "terminalId",
    "merchantId", "originalPaymentId", "dccAmount", "dccCurrency", "paymentMethod",
]

/// Checks one delivered event against what the payment was.
func expectPayload(
    _ event: Receiver.Received, type: String, paymentId: String, status: String, amount: Int, orderId: String?, last4: String,
    brand: String = "VISA", terminal: String, merchant: String, originalPaymentId: String? = nil, dcc: (Int, String)? = nil,
    createdNear: Date, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    let json = event.json
    let data = event.data
    let text = String(decoding: event.body, as: UTF8.self)
    #expect(
        Set(json.keys) == eventKeys, "\(step): event keys \(json.keys.sorted()), documented \(eventKeys.sorted()): \(text)",
        sourceLocation: sourceLocation)
    #expect(
        Set(data.keys) == dataKeys,
        "\(step): data keys differ from the documented ones (every field written, null when empty): missing \(dataKeys.subtracting(data.keys).sorted()), extra \(Set(data.keys).subtracting(dataKeys).sorted()): \(text)",
        sourceLocation: sourceLocation)
    let id = json["id"] as? String ?? ""
    #expect(matches(id, "^evt_[0-9a-f]{24}$"), "\(step): id \(id)", sourceLocation: sourceLocation)
    #expect(json["type"] as? String == type, "\(step): type: \(text)", sourceLocation: sourceLocation)
    #expect(json["livemode"] as? Bool == false, "\(step): livemode: \(text)", sourceLocation: sourceLocation)
    let created = (json["created"] as? NSNumber)?.doubleValue ?? 0
    #expect(
        abs(created - createdNear.timeIntervalSince1970) < 120, "\(step): created \(created) is not the event's time (~\(createdNear)): \(text)",
        sourceLocation: sourceLocation)
    #expect(data["paymentId"] as? String == paymentId, "\(step): paymentId: \(text)", sourceLocation: sourceLocation)
    #expect((data["orderId"] as? String) == orderId, "\(step): orderId: \(text)", sourceLocation: sourceLocation)
    #expect(data["status"] as? String == status, "\(step): status: \(text)", sourceLocation: sourceLocation)
    #expect((data["amount"] as? NSNumber)?.intValue == amount, "\(step): amount: \(text)", sourceLocation: sourceLocation)
    #expect(data["currency"] as? String == "EUR", "\(step): currency: \(text)", sourceLocation: sourceLocation)
    #expect(data["cardBrand"] as? String == brand, "\(step): cardBrand: \(text)", sourceLocation: sourceLocation)
    #expect(data["last4"] as? String == last4, "\(step): last4: \(text)", sourceLocation: sourceLocation)
    #expect(data["terminalId"] as? String == terminal, "\(step): terminalId: \(text)", sourceLocation: sourceLocation)
    #expect(data["merchantId"] as? String == merchant, "\(step): merchantId: \(text)", sourceLocation: sourceLocation)
    #expect((data["originalPaymentId"] as? String) == originalPaymentId, "\(step): originalPaymentId: \(text)", sourceLocation: sourceLocation)
    if let (dccAmount, dccCurrency) = dcc {
        #expect((data["dccAmount"] as? NSNumber)?.intValue == dccAmount, "\(step): dccAmount: \(text)", sourceLocation: sourceLocation)
        #expect(data["dccCurrency"] as? String == dccCurrency, "\(step): dccCurrency: \(text)", sourceLocation: sourceLocation)
    } else {
        #expect(data["dccAmount"] as? NSNumber == nil, "\(step): dccAmount without DCC: \(text)", sourceLocation: sourceLocation)
    }
    #expect(
        event.headers["content-type"]?.hasPrefix("application/json") == true, "\(step): Content-Type \(event.headers)",
        sourceLocation: sourceLocation)
}

@Suite("Webhook events: one per final outcome, documented payload, signed")
struct EventTests {
    @Test("sale, refund, reversal, DCC finish and a decline each send exactly one event of the documented type, MONEI-signed with the merchant's apiKey")
    func oneEventPerOutcome() async throws {
        let host = try TestHost(dispatches: false)
        defer { host.stop() }
        let receiver = try Receiver(answering: 200)
        let apiKey = try EU.apiKey(EU.merchant1)
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)
        // The host's clock stands still: an event's `created` is its time, not the real one.
        let started = host.clock.now()

        let first = try await device.clearedSale(1000, reference: "ORDER-1", "sale 10.00")
        let second = try await device.clearedSale(1500, "sale 15.00")
        // The first sale is no longer the latest, so it cannot be reversed and can be refunded.
        let refundReply = try await device.refund(first, amount: 1000)
        expectReply(refundReply, 201, nil, "refund of the first sale")
        #expect(refundReply.string("transactionStatus") == "CLEARED", "refund: \(refundReply)")
        let refund = try #require(refundReply.string("transactionId"), "refund: \(refundReply)")
        let reversed = expectReply(await device.reversal(second), 200, nil, "reversal of the second sale")
        #expect(reversed.string("transactionStatus") == "CANCELLED", "reversal: \(reversed)")
        // DCC: the offer is in flight (no event), the customer's choice finishes it.
        let offered = try await device.sale(2000, card: "visa-us-dcc")
        expectReply(offered, 201, nil, "DCC sale")
        #expect(offered.string("transactionStatus") == "DCC_REQUIRED", "DCC sale: \(offered)")
        let dccSale = try #require(offered.string("transactionId"), "DCC sale: \(offered)")
        host.deliverAllDue()
        #expect(
            !receiver.received.contains { $0.paymentId == dccSale }, "a DCC offer (in flight) sent an event: \(receiver.received.map(\.type))")
        let accepted = expectReply(await device.dcc(dccSale, accepted: true), 200, nil, "accept the DCC offer")
        #expect(accepted.string("transactionStatus") == "CLEARED", "DCC accepted: \(accepted)")
        let dccAmount = try #require(accepted.int("dccAmount"), "DCC accepted: \(accepted)")
        let dccCurrency = try #require(
            (accepted["dccCurrency"] as? String) ?? ((accepted["dccCurrency"] as? [String: Any])?["code"] as? String), "\(accepted)")
        let declinedReply = try await device.sale(1200, card: "visa-decline")
        expectReply(declinedReply, 201, nil, "declined sale")
        #expect(declinedReply.string("transactionStatus") == "DECLINED", "\(declinedReply)")
        let declined = try #require(declinedReply.string("transactionId"))

        let expected: [(String, String)] = [
            (first, "payment.succeeded"), (second, "payment.succeeded"), (refund, "refund.succeeded"), (second, "payment.canceled"),
            (dccSale, "payment.succeeded"), (declined, "payment.failed"),
        ]
        // Everything due is sent, and then nothing more is due (no second event for one outcome).
        host.deliverAllDue()
        #expect(host.deliverDue() == 0)
        let events = receiver.application
        #expect(
            events.map { "\($0.paymentId ?? "?") \($0.type ?? "?")" }.sorted() == expected.map { "\($0.0) \($0.1)" }.sorted(),
            "one event per final outcome: got \(events.map { "\($0.paymentId ?? "?") \($0.type ?? "?")" })")
        #expect(receiver.received.count == expected.count, "every event was answered 200 once: \(receiver.received.count) requests")
        let logged = await host.events(merchant: EU.merchant1)
        #expect(logged.count == expected.count, "the delivery log holds one event per outcome: \(logged)")

        func find(_ payment: String, _ type: String) throws -> Receiver.Received {
            try #require(events.first { $0.paymentId == payment && $0.type == type }, "no \(type) for \(payment)")
        }
        let m = EU.merchant1, t = EU.terminal1
        expectPayload(
            try find(first, "payment.succeeded"), type: "payment.succeeded", paymentId: first, status: "CLEARED", amount: 1000,
            orderId: "ORDER-1", last4: "0011", terminal: t, merchant: m, createdNear: started, "sale 10.00")
        expectPayload(
            try find(second, "payment.succeeded"), type: "payment.succeeded", paymentId: second, status: "CLEARED", amount: 1500,
            orderId: nil, last4: "0011", terminal: t, merchant: m, createdNear: started, "sale 15.00")
        expectPayload(
            try find(refund, "refund.succeeded"), type: "refund.succeeded", paymentId: refund, status: "CLEARED", amount: 1000,
            orderId: nil, last4: "0011", terminal: t, merchant: m, originalPaymentId: first, createdNear: started, "refund")
        expectPayload(
            try find(second, "payment.canceled"), type: "payment.canceled", paymentId: second, status: "CANCELLED", amount: 1500,
            orderId: nil, last4: "0011", terminal: t, merchant: m, createdNear: started, "reversal")
        expectPayload(
            try find(dccSale, "payment.succeeded"), type: "payment.succeeded", paymentId: dccSale, status: "CLEARED", amount: 2000,
            orderId: nil, last4: "0001", terminal: t, merchant: m, dcc: (dccAmount, dccCurrency), createdNear: started, "DCC accepted")
        expectPayload(
            try find(declined, "payment.failed"), type: "payment.failed", paymentId: declined, status: "DECLINED", amount: 1200,
            orderId: nil, last4: "0002", terminal: t, merchant: m, createdNear: started, "decline")
        // The sale's own event went out before its reversal's.
        let order = events.filter { $0.paymentId == second }.map { $0.type ?? "?" }
        #expect(order == ["payment.succeeded", "payment.canceled"], "events of one payment out of order: \(order)")

        // MONEI-Signature with the merchant's apiKey; another merchant's key does not verify.
        let otherKey = try EU.apiKey(EU.merchant2)
        for event in receiver.received {
            #expect(event.headers["monei-signature"] != nil, "no MONEI-Signature header: \(event.headers)")
            #expect(throws: Never.self, "\(event.type ?? "?") does not verify with \(EU.merchant1)'s apiKey") {
                try WebhookVerifier.verify(scheme: .monei, headers: event.headers, body: event.body, secret: apiKey)
            }
            #expect(throws: WebhookVerificationError.self, "a signature that any key verifies") {
                try WebhookVerifier.verify(scheme: .monei, headers: event.headers, body: event.body, secret: otherKey)
            }
        }
    }

    @Test("with scheme standard set in the back office, events carry webhook-id (the event id) and verify with the secret the back office shows")
    func standardWebhooks() async throws {
        let host = try TestHost()
        defer { host.stop() }
        let receiver = try Receiver(answering: 200)
        let saved = await host.setWebhook(EU.merchant2, url: receiver.hookURL, scheme: "standard")
        #expect(saved.string("scheme") == "standard" && saved.string("url") == receiver.hookURL, "settings: \(saved)")
        let shown = expectReply(await host.webhookSettings(EU.merchant2), 200, nil, "GET the webhook settings")
        let secret = try #require(shown.string("secret"), "settings: \(shown)")
        #expect(matches(secret, "^whsec_[A-Za-z0-9+/]{32}$"), "secret \(secret)")
        #expect(shown.string("scheme") == "standard" && shown.bool("disabled") == false, "settings: \(shown)")

        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal2)
        let sale = try await device.clearedSale(1000, "sale")
        #expect(await eventually(60) { receiver.application.count >= 1 }, "no event arrived: \(receiver.received.count)")
        let event = try #require(receiver.application.first)
        #expect(event.paymentId == sale && event.type == "payment.succeeded", "\(event.json)")
        #expect(event.headers["webhook-id"] == event.eventId, "webhook-id \(event.headers["webhook-id"] ?? "none") ≠ event id \(event.eventId ?? "none")")
        #expect(event.headers["webhook-timestamp"] != nil, "no webhook-timestamp: \(event.headers)")
        let verified = try WebhookVerifier.verify(scheme: .standard, headers: event.headers, body: event.body, secret: secret)
        #expect(verified.id == event.eventId)
        #expect(throws: WebhookVerificationError.self, "verifies with another secret") {
            try WebhookVerifier.verify(
                scheme: .standard, headers: event.headers, body: event.body, secret: "whsec_" + Data(repeating: 7, count: 24).base64EncodedString())
        }
        #expect(event.headers["monei-signature"] == nil, "a Standard Webhooks delivery also carries MONEI-Signature: \(event.headers)")

        // Switching back to MONEI signs the next event with the apiKey.
        await host.setWebhook(EU.merchant2, url: receiver.hookURL, scheme: "monei")
        let next = try await device.clearedSale(1100, "sale after switching to MONEI")
        #expect(await eventually(60) { receiver.application.contains { $0.paymentId == next } }, "no event for the second sale")
        let moneiEvent = try #require(receiver.application.first { $0.paymentId == next })
        #expect(throws: Never.self) {
            try WebhookVerifier.verify(scheme: .monei, headers: moneiEvent.headers, body: moneiEvent.body, secret: try EU.apiKey(EU.merchant2))
        }
    }

    @Test("a sale cancelled at the reader (USER_CANCELLED, no card) sends payment.failed, as docs/webhooks.md says")
    func readerCancelled() async throws {
        let host = try TestHost()
        defer { host.stop() }
        let receiver = try Receiver(answering: 200)
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)
        let reply = expectReply(await device.readerOutcome(1000, "cancelled"), 201, nil, "sale cancelled at the reader")
        #expect(reply.string("transactionStatus") == "USER_CANCELLED", "\(reply)")
        #expect(await eventually(60) { !receiver.application.isEmpty }, "no event for a sale cancelled at the reader")
        let types = receiver.application.map { $0.type ?? "?" }
        #expect(
            types == ["payment.failed"],
            "docs/webhooks.md: payment.failed is 'a sale ends … USER_CANCELLED at the reader'; payment.canceled is a reversal. Got \(types)")
    }

    @Test("a sale left in flight that expires (card never came, terminal touched after 120 s) or whose device is unregistered sends payment.failed with TIMEOUT")
    func inFlightEndsAsTimeout() async throws {
        let host = try TestHost(dispatches: false)
        defer { host.stop() }
        let receiver = try Receiver(answering: 200)
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)

        // Expiry (expireStale): NEW for 120 s, then the next touch of the terminal times it out.
        let waiting = expectReply(await device.saleWithoutCard(1000), 201, nil, "sale without card")
        #expect(waiting.string("transactionStatus") == "NEW", "\(waiting)")
        let expiring = try #require(waiting.string("transactionId"))
        #expect(host.deliverAllDue() == 0, "an event was due for a sale still waiting for its card")
        #expect(receiver.received.isEmpty, "an event for a sale still waiting for its card")
        await host.advance(121)
        try await device.login()
        let next = try await device.clearedSale(1100, "the next sale, after the first expired")
        host.deliverAllDue()
        #expect(receiver.application.count == 2, "events: \(receiver.application.map(\.type))")
        let expired = receiver.application.first { $0.paymentId == expiring }
        #expect(expired?.type == "payment.failed" && expired?.data["status"] as? String == "TIMEOUT", "expired sale: \(expired?.json ?? [:])")
        #expect(receiver.application.contains { $0.paymentId == next && $0.type == "payment.succeeded" })

        // Unregistration ends the transaction the device left in flight.
        let left = expectReply(await device.saleWithoutCard(1200), 201, nil, "another sale without card")
        let abandoned = try #require(left.string("transactionId"))
        expectReply(await device.unregister(), 204, nil, "unregister the device")
        host.deliverAllDue()
        #expect(receiver.application.contains { $0.paymentId == abandoned }, "no event for the abandoned sale")
        let ended = receiver.application.first { $0.paymentId == abandoned }
        #expect(ended?.type == "payment.failed" && ended?.data["status"] as? String == "TIMEOUT", "abandoned sale: \(ended?.json ?? [:])")
        #expect(receiver.application.filter { $0.paymentId == expiring || $0.paymentId == abandoned }.count == 2, "one event each")
    }
}
