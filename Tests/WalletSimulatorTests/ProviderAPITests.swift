import Foundation
import Testing
import HostTestSupport
import SandboxTestSupport

/// The provider API the hosts call: signatures, idempotent orders, close, bad input.
@Suite struct ProviderAPITests {
    @Test func anOrderSignedWithItsRegionsSecretIsMadeWithItsPayURL() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let made = wallet.makeOrder("tx-1")
        #expect(made.status == 201, "\(made)")
        #expect(made.string("status") == "pending")
        #expect(made.string("payUrl") == wallet.wallet.url + "/pay/tx-1")
        #expect(made.string("merchantName") == "Café Lumière")
        let read = wallet.provider("GET", "/provider/v1/orders/tx-1")
        #expect(read.status == 200 && read.string("orderId") == "tx-1", "\(read)")
    }

    @Test(arguments: [
        ("no signature", "EU", nil as String?, String??.some(nil)),
        ("a signature of another body", "EU", nil, .some("t=\(Int(Date().timeIntervalSince1970)),v1=" + String(repeating: "ab", count: 32))),
        ("signed with ANZ's secret as EU", "EU", walletData.secrets["ANZ"], .none),
        ("a region the wallet does not know", "XX", "wsec_unknown_0000000000", .none),
        ("not the MONEI format", "EU", nil, .some("sha256=abc")),
    ])
    func aRequestWithoutAValidSignatureIsRefused(_ why: String, region: String, secret: String?, signature: String??) throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let body: [String: Any] = [
            "orderId": "tx-1", "region": region, "merchantId": "EU-M01", "merchantName": "Shop", "terminalId": "EU-T0101",
            "amount": 100, "currency": "EUR", "brand": "ALIPAY", "expiresInSeconds": 300,
        ]
        let reply = wallet.provider("POST", "/provider/v1/orders", body, region: region, secret: secret, signature: signature)
        #expect(reply.status == 401, "\(why): \(reply)")
        #expect(reply.errorCode == "provider_signature_invalid", "\(why)")
        #expect(wallet.order("tx-1").status == 404, "\(why): no order was made")
    }

    @Test func aSignatureOlderThanFiveMinutesIsRefused() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let reply = wallet.provider("GET", "/provider/v1/orders/tx-1", timestamp: Int(Date().timeIntervalSince1970) - 301)
        #expect(reply.status == 401 && reply.errorCode == "provider_signature_invalid", "\(reply)")
    }

    @Test func anotherRegionsHostCannotSeeOrCloseAnOrder() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        wallet.makeOrder("tx-1")
        #expect(wallet.provider("GET", "/provider/v1/orders/tx-1", region: "ANZ").errorCode == "order_not_found")
        let close = wallet.provider("POST", "/provider/v1/orders/tx-1/close", ["reason": "cancelled"], region: "ANZ")
        #expect(close.status == 404 && close.errorCode == "order_not_found", "\(close)")
        #expect(wallet.order("tx-1").string("status") == "pending")
    }

    @Test func theSameOrderAgainAnswersTheSameOrderAndAnotherWithItsIdIsRefused() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let first = wallet.makeOrder("tx-1")
        let again = wallet.makeOrder("tx-1")
        #expect(first.status == 201 && again.status == 200, "\(again)")
        #expect(again.string("createdAt") == first.string("createdAt"))
        let other = wallet.makeOrder("tx-1", amount: 999)
        #expect(other.status == 409 && other.errorCode == "idempotency_key_reused" && other.errorField == "orderId", "\(other)")
        #expect(wallet.order("tx-1").int("amount") == 1250)
    }

    @Test(arguments: [
        ("orderId", #""../etc""#, "invalid_request"),
        ("region", #""ANZ""#, "invalid_request"),
        ("merchantId", #""""#, "invalid_request"),
        ("merchantName", #""""#, "invalid_request"),
        ("terminalId", #""T 1""#, "invalid_request"),
        ("amount", "0", "invalid_amount"),
        ("amount", "-5", "invalid_amount"),
        ("currency", #""EURO""#, "invalid_currency"),
        ("currency", #""eur""#, "invalid_currency"),
        ("brand", #""alipay""#, "invalid_request"),
        ("reference", "\"" + String(repeating: "x", count: 101) + "\"", "invalid_request"),
        ("expiresInSeconds", "0", "invalid_request"),
        ("expiresInSeconds", "86401", "invalid_request"),
        ("amount", #""12""#, "invalid_json"),
    ])
    func aBadFieldOfAnOrderIsRefusedByName(_ field: String, json: String, code: String) throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        let reply = wallet.makeOrder("tx-1") { $0[field] = value }
        #expect(reply.status == 400, "\(field)=\(value): \(reply)")
        #expect(reply.errorCode == code && reply.errorField == field, "\(field)=\(value): \(reply)")
    }

    @Test func aMissingFieldOrABodyThatIsNotJSONIsA400() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let missing = wallet.makeOrder("tx-1") { $0.removeValue(forKey: "currency") }
        #expect(missing.status == 400 && missing.errorCode == "invalid_json" && missing.errorField == "currency", "\(missing)")
        let close = wallet.provider("POST", "/provider/v1/orders/tx-1/close", ["reason": "because"])
        #expect(close.status == 400 && close.errorField == "reason", "\(close)")
    }

    @Test func theHostClosesAnUnpaidOrderButNotAPaidOne() throws {
        let host = try RecordingWalletHost()
        let wallet = try InProcessWallet(hosts: ["EU": host.url])
        defer { wallet.stop(); host.stop() }
        wallet.makeOrder("tx-open")
        let closed = wallet.provider("POST", "/provider/v1/orders/tx-open/close", ["reason": "cancelled"])
        #expect(closed.status == 200 && closed.string("status") == "closed" && closed.string("reason") == "cancelled", "\(closed)")
        let late = wallet.press("pay", "tx-open")
        #expect(late.status == 409 && late.errorCode == "order_not_payable", "\(late)")

        wallet.makeOrder("tx-paid")
        #expect(wallet.press("pay", "tx-paid").string("status") == "paid")
        let refused = wallet.provider("POST", "/provider/v1/orders/tx-paid/close", ["reason": "expired"])
        #expect(refused.status == 409 && refused.errorCode == "order_paid", "\(refused)")
        #expect(wallet.order("tx-paid").string("status") == "paid")
    }

    @Test func aCloseWhileThePaymentWaitsForTheHostDropsThePayment() async throws {
        let host = try RecordingWalletHost()
        host.answer(with: .fail)
        let wallet = try InProcessWallet(hosts: ["EU": host.url], payWait: .milliseconds(100))
        defer { wallet.stop(); host.stop() }
        wallet.makeOrder("tx-1")
        #expect(wallet.press("pay", "tx-1").string("status") == "paying")
        let closed = wallet.provider("POST", "/provider/v1/orders/tx-1/close", ["reason": "cancelled"])
        #expect(closed.string("status") == "closed", "the host decides: it cancelled first \(closed)")
        host.answer(with: .acknowledge)
        #expect(await eventually { (try? wallet.wallet.pendingNotifications()) == 0 })
        #expect(host.types(of: "tx-1").isEmpty, "the payment never reaches the host")
        #expect(wallet.order("tx-1").string("status") == "closed")
        #expect(wallet.order("tx-1")["paymentId"] is NSNull, "nothing is charged")
    }

    @Test(arguments: [
        ("GET", "/provider/v1/orders/a%20b", nil as String?, 400, "invalid_request"),
        ("GET", "/provider/v1/refunds/nope", nil, 404, "not_found"),
        ("POST", "/provider/v1/orders", "not json", 400, "invalid_json"),
        ("POST", "/provider/v1/orders", "[]", 400, "invalid_json"),
        ("POST", "/provider/v1/refunds", #"{"refundId":"rf-1"}"#, 400, "invalid_json"),
        ("POST", "/provider/v1/orders/tx-1/close", "{}", 400, "invalid_json"),
        ("DELETE", "/provider/v1/orders/tx-1", nil, 405, "method_not_allowed"),
    ])
    func badProviderRequestsGetTheEnvelope(_ method: String, _ path: String, raw: String?, status: Int, code: String) throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let body = raw.map { try? JSONSerialization.jsonObject(with: Data($0.utf8), options: [.fragmentsAllowed]) } ?? nil
        // Signed over the exact bytes sent: the refusal is about the request, not its signature.
        let reply = body is [String: Any] ? wallet.provider(method, path, body as? [String: Any]) : wallet.signedRaw(method, path, raw ?? "")
        #expect(reply.status == status && reply.errorCode == code, "\(method) \(path): \(reply)")
    }

    @Test func closingAnUnknownOrderIs404() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let reply = wallet.provider("POST", "/provider/v1/orders/nope/close", ["reason": "cancelled"])
        #expect(reply.status == 404 && reply.errorCode == "order_not_found", "\(reply)")
    }
}
