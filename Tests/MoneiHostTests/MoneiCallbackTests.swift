import Foundation
import SandboxHTTPClient
import SandboxTestSupport
import Testing
import WebhookSignature

@Suite("MONEI host: the signed payment callback, refunds, and the callbackUrl rules")
struct MoneiCallbackTests {
    @Test("the bare Payment object is POSTed to callbackUrl with MONEI-Signature keyed with the account's API key, real-time dated")
    func signedCallback() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        let receiver = try CallbackReceiver()
        // The sandbox clock far ahead: the signature still carries the real time.
        expectReply(await monei.api.advanceClock(30 * 86_400, "a month ahead"), 200, nil, "clock")
        let token = try await monei.token()
        let reply = try await monei.pay(token: token, amount: 1999, orderId: "order-cb", callbackUrl: receiver.url)
        expectReply(reply, 200, nil, "payment")
        #expect(await eventually(60) { receiver.received.count >= 1 }, "the callback arrives")
        let callback = try #require(receiver.received.first)
        // The bare object, as answered to the device, not an event envelope.
        #expect(callback.json as NSDictionary == reply.object as NSDictionary, "\(callback.text)\n\(reply)")
        let header = try #require(callback.headers["monei-signature"], "\(callback.headers)")
        #expect(header.hasPrefix("t=") && header.contains(",v1="), "\(header)")
        let verified = try WebhookVerifier.verify(
            scheme: .monei, headers: ["MONEI-Signature": header], body: callback.body, secret: monei.key1)
        #expect(abs(Double(verified.timestamp) - Date().timeIntervalSince1970) < 60, "signed at real time: \(verified.timestamp)")
        // Another account's key does not verify it.
        #expect(throws: (any Error).self) {
            try WebhookVerifier.verify(scheme: .monei, headers: ["MONEI-Signature": header], body: callback.body, secret: monei.key2)
        }
    }

    @Test("refunds: partial then the rest, PARTIALLY_REFUNDED then REFUNDED, each with its callback; no more than the amount")
    func refunds() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        let receiver = try CallbackReceiver()
        let token = try await monei.token()
        let id = try await monei.succeeded(token: token, amount: 1050, callbackUrl: receiver.url)
        let partial = await monei.refund(id, ["amount": 400, "refundReason": "requested_by_customer"])
        expectReply(partial, 200, nil, "partial refund")
        #expect(partial.string("status") == "PARTIALLY_REFUNDED" && partial.int("refundedAmount") == 400, "\(partial)")
        #expect(partial.int("lastRefundAmount") == 400 && partial.string("lastRefundReason") == "requested_by_customer", "\(partial)")
        #expect(partial.string("statusCode") == "E000")
        expectMoneiError(await monei.refund(id, ["amount": 651]), 422, code: "refund_over_amount", "more than is left")
        let rest = await monei.refund(id)
        expectReply(rest, 200, nil, "refund the rest")
        #expect(rest.string("status") == "REFUNDED" && rest.int("refundedAmount") == 1050 && rest.int("lastRefundAmount") == 650, "\(rest)")
        expectMoneiError(await monei.refund(id, ["amount": 1]), 409, code: "already_refunded", "refunded in full")
        let read = await monei.payment(id)
        #expect(read.string("status") == "REFUNDED" && read.int("refundedAmount") == 1050, "\(read)")
        #expect(await eventually(60) { receiver.received.count >= 3 }, "payment and two refund callbacks")
        let statuses = receiver.received.map { $0.json["status"] as? String ?? "?" }
        #expect(Set(statuses) == ["SUCCEEDED", "PARTIALLY_REFUNDED", "REFUNDED"], "\(statuses)")
        for callback in receiver.received {
            #expect(throws: Never.self) {
                try WebhookVerifier.verify(
                    scheme: .monei, headers: ["MONEI-Signature": callback.headers["monei-signature"] ?? ""], body: callback.body,
                    secret: monei.key1)
            }
        }
    }

    @Test("refunds refused: a failed payment, another account's, bad amounts and reasons, bad JSON")
    func refundRefusals() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        let token = try await monei.token()
        let id = try await monei.succeeded(token: token)
        let failed = try #require(try await monei.pay(token: token, amount: 4205).string("id"))
        expectMoneiError(await monei.refund(failed), 409, code: "transaction_not_refundable", "a FAILED payment")
        expectMoneiError(await monei.refund(id, key: monei.key2), 404, code: "transaction_not_found", "another account's payment")
        expectMoneiError(await monei.refund(id, ["amount": 0]), 400, code: "invalid_request", "amount 0")
        expectMoneiError(await monei.refund(id, ["amount": -1]), 400, code: "invalid_request", "a negative amount")
        expectMoneiError(await monei.refund(id, ["refundReason": "bored"]), 400, code: "invalid_request", "an unknown reason")
        expectMoneiError(await monei.refund(id, ["amount": "5"]), 400, code: "invalid_json", "a string amount")
        let raw = await monei.api.call("POST", "/v1/payments/\(id)/refund", authorization: monei.key1, raw: "[")
        expectMoneiError(raw, 400, code: "invalid_json", "not JSON")
        #expect(await monei.payment(id).string("status") == "SUCCEEDED", "nothing was refunded")
    }

    @Test("prod flavour: a callbackUrl that is not https, too long or private makes no payment and answers 422 outcome_unknown, after the card read")
    func prodCallbackRules() async throws {
        let monei = try MoneiHost(flavour: .prod)
        defer { monei.stop() }
        let token = try await monei.token()
        let sealed = try await monei.seal("visa-es", token: token)
        let long = "https://example.invalid/" + String(repeating: "a", count: 2049 - "https://example.invalid/".count)
        for url in ["http://example.invalid/hook", "https://127.0.0.1/hook", "https://10.1.2.3/hook", "https://192.168.0.10/hook", long, "not a url"] {
            let reply = await monei.api.call(
                "POST", "/v1/pos/payments", bearer: token, body: ["amount": 100, "orderId": "o", "card": sealed, "callbackUrl": url])
            expectMoneiError(reply, 422, code: "outcome_unknown", "callbackUrl \(url.prefix(40))")
            #expect(reply.string("field") == "callbackUrl")
        }
        // Checked after the card read: a bad card with a bad URL is the card's refusal.
        let badCard = await monei.api.call(
            "POST", "/v1/pos/payments", bearer: token,
            body: ["amount": 100, "orderId": "o", "card": "garbage", "callbackUrl": "http://example.invalid/hook"])
        expectMoneiError(badCard, 400, code: "card_payload_invalid", "a bad card and a bad URL")
        // No payment was made: the card read was never spent, and pays now with a good URL (2048 characters at most).
        let longest = "https://example.invalid/" + String(repeating: "b", count: 2048 - "https://example.invalid/".count)
        let paid = await monei.api.call(
            "POST", "/v1/pos/payments", bearer: token, body: ["amount": 100, "orderId": "o", "card": sealed, "callbackUrl": longest])
        #expect(paid.status == 200 && paid.string("status") == "SUCCEEDED", "\(paid)")
    }
}
