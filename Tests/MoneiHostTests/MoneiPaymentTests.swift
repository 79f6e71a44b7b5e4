import Foundation
import SandboxTestSupport
import Testing

@Suite("MONEI host: the device's card payment and MONEI's Payment object")
struct MoneiPaymentTests {
    @Test("an approved payment is MONEI's Payment object with every field, and GET /v1/payments/{id} answers the same")
    func approved() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        // Ten days ahead: the payment's times are the host's, not the machine's.
        expectReply(await monei.api.advanceClock(10 * 86_400, "ten days ahead"), 200, nil, "clock")
        let token = try await monei.token(["storeId": MoneiHost.centro, "pointOfSaleId": "MONEI-T0102"])
        let clock = await monei.api.call("GET", "/_sandbox/clock")
        let reply = try await monei.pay(token: token, amount: 1050, orderId: "order-17")
        expectReply(reply, 200, nil, "payment")
        #expect(reply.string("id")?.count == 32, "\(reply)")
        #expect(reply.int("amount") == 1050 && reply.string("currency") == "EUR" && reply.string("orderId") == "order-17")
        #expect(reply.string("status") == "SUCCEEDED" && reply.string("statusCode") == "E000", "\(reply)")
        #expect(reply.string("statusMessage")?.isEmpty == false)
        #expect(reply.bool("livemode") == false)
        #expect(reply.int("refundedAmount") == 0)
        #expect(reply.string("storeId") == MoneiHost.centro && reply.string("pointOfSaleId") == "MONEI-T0102", "\(reply)")
        #expect(reply.string("accountId") == MoneiHost.account1)
        let card = (reply["paymentMethod"] as? [String: Any])?["card"] as? [String: Any] ?? [:]
        #expect(card["brand"] as? String == "visa" && card["last4"] as? String == "0007", "\(reply)")
        #expect(card["type"] as? String == "debit" && card["country"] as? String == "ES", "\(reply)")
        #expect((reply["paymentMethod"] as? [String: Any])?["method"] as? String == "card")
        // Epoch seconds on the host's clock.
        let hostNow = try #require(clock.string("now").flatMap { ISO8601DateFormatter().date(from: $0) }, "\(clock)")
        #expect(abs(Double(reply.int("createdAt") ?? 0) - hostNow.timeIntervalSince1970) <= 5, "\(reply) vs \(clock)")
        #expect(reply.int("createdAt") == reply.int("updatedAt"))
        #expect(reply.text.contains("null") == false, "absent values are left out: \(reply)")

        let read = await monei.payment(try #require(reply.string("id")))
        expectReply(read, 200, nil, "GET the payment")
        #expect(read.object as NSDictionary == reply.object as NSDictionary, "\(read)\n\(reply)")
    }

    @Test(
        "the issuer decides as on every host: a decline is a FAILED payment with its statusCode, not an error",
        arguments: [
            (4205, "visa-es", "E201"), (4251, "visa-es", "E512"), (4254, "visa-es", "E505"), (4296, "visa-es", "E101"),
            (4268, "visa-es", "E207"), (1000, "visa-decline", "E201"), (1000, "amex-expired", "E505"), (1000, "mc-pin-es", "E517"),
        ])
    func declines(amount: Int, card: String, code: String) async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        let token = try await monei.token()
        let reply = try await monei.pay(token: token, amount: amount, card: card)
        expectReply(reply, 200, nil, "\(card) for \(amount)")
        #expect(reply.string("status") == "FAILED" && reply.string("statusCode") == code, "\(reply)")
        #expect(reply["authorizationCode"] == nil, "\(reply)")
        // Reconciled by id as it was answered.
        let read = await monei.payment(try #require(reply.string("id")))
        #expect(read.string("status") == "FAILED" && read.string("statusCode") == code, "\(read)")
    }

    @Test("other test cards and brands: mastercard and amex by MONEI's names, a credit card as credit")
    func brands() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        let token = try await monei.token()
        for (name, brand, type) in [("mc-es", "mastercard", "debit"), ("amex", "amex", "credit"), ("maestro", "unknown", "credit")] {
            let reply = try await monei.pay(token: token, amount: 500, card: name)
            let card = (reply["paymentMethod"] as? [String: Any])?["card"] as? [String: Any] ?? [:]
            #expect(reply.string("status") == "SUCCEEDED", "\(name): \(reply)")
            #expect(card["brand"] as? String == brand && card["type"] as? String == type, "\(name): \(reply)")
        }
    }

    @Test("another account's payment, an unknown id and no key are refused in MONEI's error body")
    func reads() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        let id = try await monei.succeeded(token: try await monei.token())
        expectMoneiError(await monei.payment(id, key: monei.key2), 404, code: "transaction_not_found", "another account's payment")
        expectMoneiError(await monei.payment("0000000000000000"), 404, code: "transaction_not_found", "an unknown id")
        expectMoneiError(await monei.payment(String(repeating: "a", count: 300)), 404, code: "transaction_not_found", "a long id")
        expectMoneiError(await monei.api.call("GET", "/v1/payments/\(id)"), 401, code: "unauthorized", "no key")
    }

    @Test("a method a MONEI path does not take is MONEI's 405 with Allow; the sandbox's own paths keep the envelope")
    func wrongMethod() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        for (method, path, allow) in [("GET", "/v1/pos/auth-token", "POST"), ("DELETE", "/v1/payments/abc", "GET, HEAD"), ("PUT", "/v1/pos/payments", "POST")] {
            let reply = await monei.api.call(method, path, authorization: monei.key1)
            expectMoneiError(reply, 405, code: "method_not_allowed", "\(method) \(path)")
            #expect(reply.header("Allow") == allow, "\(method) \(path): \(reply)")
        }
        let elsewhere = await monei.api.call("DELETE", "/terminal/v1/sessions")
        #expect(elsewhere.status == 405 && elsewhere["error"] != nil, "\(elsewhere)")
    }

    @Test("bad input on the payment call: MONEI's 400s naming the field, a replayed or foreign card read refused")
    func badInput() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        let token = try await monei.token()
        let sealed = try await monei.seal("visa-es", token: token)
        let cases: [([String: Any], String, String)] = [
            (["amount": 0, "orderId": "o", "card": sealed], "invalid_request", "amount"),
            (["amount": -5, "orderId": "o", "card": sealed], "invalid_request", "amount"),
            (["amount": 1_000_001, "orderId": "o", "card": sealed], "invalid_request", "amount"),
            (["amount": 100, "currency": "USD", "orderId": "o", "card": sealed], "invalid_request", "currency"),
            (["amount": 100, "orderId": "", "card": sealed], "invalid_request", "orderId"),
            (["amount": 100, "orderId": "   ", "card": sealed], "invalid_request", "orderId"),
            (["amount": 100, "orderId": String(repeating: "o", count: 101), "card": sealed], "invalid_request", "orderId"),
            (["amount": 100, "orderId": "o"], "invalid_json", "card"),
            (["orderId": "o", "card": sealed], "invalid_json", "amount"),
            (["amount": "100", "orderId": "o", "card": sealed], "invalid_json", "amount"),
            (["amount": 100, "orderId": "o", "card": "not sealed"], "card_payload_invalid", "card"),
        ]
        for (body, code, field) in cases {
            let reply = await monei.api.call("POST", "/v1/pos/payments", bearer: token, body: body)
            expectMoneiError(reply, 400, code: code, "body \(body.keys.sorted()) \(body["amount"] ?? "-")")
            #expect(reply.string("field") == field, "\(reply)")
        }
        let raw = await monei.api.call("POST", "/v1/pos/payments", bearer: token, raw: "{")
        expectMoneiError(raw, 400, code: "invalid_json", "not JSON")
        // The card read is still unspent: it pays once, then is a replay.
        let paid = await monei.api.call("POST", "/v1/pos/payments", bearer: token, body: ["amount": 100, "orderId": "o", "card": sealed])
        #expect(paid.string("status") == "SUCCEEDED", "\(paid)")
        let again = await monei.api.call("POST", "/v1/pos/payments", bearer: token, body: ["amount": 100, "orderId": "o2", "card": sealed])
        expectMoneiError(again, 409, code: "card_payload_replayed", "the same read twice")
        // A read sealed for another point of sale does not open here.
        let otherToken = try await monei.token(["pointOfSaleId": "MONEI-T0102"])
        let foreign = await monei.api.call(
            "POST", "/v1/pos/payments", bearer: otherToken,
            body: ["amount": 100, "orderId": "o3", "card": try await monei.seal("visa-es", token: token)])
        expectMoneiError(foreign, 400, code: "card_payload_invalid", "a read for another point of sale")
    }

    @Test("a card read older than 120 s on the host's clock fails the payment (E207)")
    func staleRead() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        let token = try await monei.token()
        let sealed = try await monei.seal("visa-es", token: token)
        expectReply(await monei.api.advanceClock(121, "the read gets old"), 200, nil, "clock")
        let reply = await monei.api.call("POST", "/v1/pos/payments", bearer: token, body: ["amount": 100, "orderId": "o", "card": sealed])
        #expect(reply.status == 200 && reply.string("status") == "FAILED" && reply.string("statusCode") == "E207", "\(reply)")
    }

    @Test("one payment at a time per point of sale: while one is in flight there, a payment is 409 terminal_busy (the device's busy)")
    func busy() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        // A sale created on the terminal API without its card waits for one on MONEI-T0101.
        let fixtures = try MerchantsFile.load().region("MONEI")
        let device = try await monei.api.portalRegistration(
            "till-1", terminal: "MONEI-T0101", backOfficeKey: fixtures.backOfficeKey, pin: "2468", "register a till")
        let login = await monei.api.call(
            "POST", "/terminal/v1/sessions", body: ["deviceId": device.deviceId, "deviceSecret": device.secret, "pin": "2468"])
        let session = try #require(login.string("sessionToken"), "\(login)")
        let waiting = await monei.api.call(
            "POST", "/terminal/v1/transactions/sale", bearer: session, body: ["currency": "EUR", "requestedAmount": 500])
        expectReply(waiting, 201, nil, "a sale waiting for its card")
        let token = try await monei.token(["pointOfSaleId": "MONEI-T0101"])
        let busy = try await monei.pay(token: token, amount: 1000)
        expectMoneiError(busy, 409, code: "terminal_busy", "a payment while another is in flight")
        // Another point of sale is free.
        let other = try await monei.pay(token: try await monei.token(["pointOfSaleId": "MONEI-T0102"]), amount: 1000)
        #expect(other.string("status") == "SUCCEEDED", "\(other)")
        // Once the other one's card deadline passes on the host's clock, the point of sale takes payments again.
        expectReply(await monei.api.advanceClock(3600, "an hour later"), 200, nil, "clock")
        let later = try await monei.pay(token: token, amount: 1000)
        #expect(later.string("status") == "SUCCEEDED", "\(later)")
    }
}
