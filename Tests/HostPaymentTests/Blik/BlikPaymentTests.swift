import Foundation
import HostTestSupport
import SandboxWire
import SandboxTestSupport
import Testing

/// A BLIK payment on the terminal API (docs/blik.md): the code checked by the wallet at once, the
/// payment ONGOING while the customer decides, and each outcome. The wallet is HostTestSupport's
/// ``WalletProviderDouble`` playing the customer's bank.
@Suite("BLIK payments: the code, the customer's answer, the deadline")
struct BlikPaymentTests {
    @Test("a code the bank issued: ONGOING, BLIK, no QR, blikTimeout to answer; the wallet was asked with the code, signed")
    func paymentWaitsForTheCustomer() async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        counter.wallet.issueBlikCode("123456")
        let reply = expectReply(await counter.blikPay(4500, code: "123456", tip: 500, reference: "INV-B1"), 201, nil, "pay 45.00 by BLIK")
        let id = try #require(reply.string("transactionId"), "\(reply)")
        #expect(reply.string("transactionStatus") == "ONGOING" && reply.string("transactionType") == "AUTH", "\(reply)")
        #expect(reply.string("paymentMethod") == "BLIK" && reply.string("brand") == "BLIK", "\(reply)")
        #expect(reply["qrCode"] is NSNull && reply["qrCodeSVG"] is NSNull, "BLIK has no QR: \(reply)")
        #expect(reply.int("transactionAmount") == 4500 && reply.int("tipAmount") == 500 && currencyCode(reply["currency"]) == "PLN", "\(reply)")
        let created = try #require(parseTime(reply["transactionDate"]))
        let expires = try #require(parseTime(reply["expiresAt"]))
        #expect(abs(expires.timeIntervalSince(created) - 120) < 0.01, "MBANK-T0101's blikTimeout is 120 s: \(reply)")
        let asked = try #require(counter.wallet.log.blikPayments.last)
        #expect(asked.paymentId == id && asked.payCode == "123456" && asked.verificationCode == nil, "\(asked)")
        #expect(asked.amount == 4500 && asked.currency == "PLN" && asked.merchantId == "MBANK-M01" && asked.terminalId == counter.id, "\(asked)")
        #expect(asked.region == "MBANK" && asked.expiresInSeconds == 120 && asked.reference == "INV-B1" && !asked.merchantName.isEmpty, "\(asked)")
        #expect(counter.wallet.log.unsigned == 0 && counter.wallet.log.orders.isEmpty, "the BLIK call, not a QR order")
        let polled = expectReply(await counter.poll(id), 200, nil, "poll while the customer decides")
        #expect(polled.string("transactionStatus") == "ONGOING", "\(polled)")
        #expect(await counter.webhooks(of: id).isEmpty, "no outcome yet")
        // The customer approves in the bank app: the wallet's order.paid.
        expectReply(try await counter.notify(.orderPaid, order: id, paymentId: "blik_ref_1"), 204, nil, "approved")
        let paid = expectReply(await counter.poll(id), 200, nil, "poll after the approval")
        #expect(paid.string("transactionStatus") == "CLEARED" && paid.string("providerReference") == "blik_ref_1", "\(paid)")
        #expect(paid["refundable"] as? Bool == true, "\(paid)")
        let hooks = await counter.webhooks(of: id)
        #expect(hooks.map(\.type) == ["payment.succeeded"], "\(hooks.map(\.type))")
        #expect(hooks.first?.payload["paymentMethod"] as? String == "BLIK" && hooks.first?.payload["cardBrand"] as? String == "BLIK", "\(hooks)")
        expectReply(await counter.cancel(id), 409, "apm_already_paid", "cancel after the approval")
    }

    @Test("a 9-digit code with its verification code pays; with a wrong one it is refused blik_verification_failed")
    func nineDigits() async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        counter.wallet.issueBlikCode("123456789", verification: "4321")
        let wrong = expectReply(
            await counter.blikPay(1000, code: "123456789", verification: "1111"), 403, "blik_verification_failed", "a wrong verification code")
        #expect(wrong.errorField == "verificationCode", "\(wrong)")
        let reply = expectReply(await counter.blikPay(1000, code: "123456789", verification: "4321"), 201, nil, "the right one")
        #expect(reply.string("transactionStatus") == "ONGOING", "\(reply)")
        #expect(counter.wallet.log.blikPayments.last?.verificationCode == "4321")
    }

    @Test(
        "each refusal of the code is relayed at once with the wallet's code and status; nothing is stored and the terminal is free",
        arguments: ["blik_code_unknown", "blik_code_expired", "blik_code_used"])
    func codeRefusals(expected: String) async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        let code = "246810"
        switch expected {
        case "blik_code_expired":
            counter.wallet.issueBlikCode(code)
            counter.wallet.expireBlikCode(code)
        case "blik_code_used":
            // Spent by a payment on another terminal of the merchant.
            counter.wallet.issueBlikCode(code)
            let other = try await counter.secondTerminal("MBANK-T0103")
            expectReply(await counter.blikPay(1000, code: code, token: other), 201, nil, "MBANK-T0103 pays with the code")
        default:
            break
        }
        let status = ["blik_code_unknown": 404, "blik_code_expired": 410, "blik_code_used": 409][expected]!
        let refused = expectReply(await counter.blikPay(1000, code: code, key: "blik-refused-1"), status, expected, "pay with the code")
        #expect(refused.errorField == "payCode" && (refused.errorMessage ?? "").isEmpty == false, "\(refused)")
        #expect(await counter.historyTotal() == 0, "nothing is stored on this terminal")
        // The terminal is free, and the refusal was not kept under the key: the next code pays.
        let next = expectReply(
            await counter.blikPay(1000, code: { counter.wallet.issueBlikCode("135790"); return "135790" }(), key: "blik-refused-1"),
            201, nil, "a fresh code under the same key")
        #expect(next.headers.first(name: "Idempotent-Replayed") == nil && next.string("transactionStatus") == "ONGOING", "\(next)")
    }

    @Test("guessing codes is throttled: five unknown codes in a minute, then 429 with Retry-After even for a live code, which pays once the minute passed")
    func guessingCodesIsThrottled() async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        counter.wallet.issueBlikCode("975310")
        for guess in ["100001", "100002", "100003", "100004", "100005"] {
            expectReply(await counter.blikPay(1000, code: guess), 404, "blik_code_unknown", "guess \(guess)")
        }
        let locked = expectReply(await counter.blikPay(1000, code: "975310"), 429, "too_many_attempts", "the sixth try, a live code")
        let wait = Int(locked.headers.first(name: "Retry-After") ?? "")
        #expect(wait.map { (1...60).contains($0) } == true, "Retry-After: \(locked.headers)")
        #expect(counter.wallet.log.blikPayments.count == 5, "the wallet was not asked while locked")
        #expect(await counter.historyTotal() == 0, "nothing is stored")
        await counter.advance(61, "the minute passes")
        let paid = expectReply(await counter.blikPay(1000, code: "975310"), 201, nil, "the customer's code, not spent by the lock")
        #expect(paid.string("transactionStatus") == "ONGOING", "\(paid)")
    }

    @Test("the code's shape is checked before the wallet is asked: blik_code_invalid naming the field")
    func codeShape() async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        for (code, verification, field, what) in [
            ("12a456", nil, "payCode", "a letter"), ("1234567", nil, "payCode", "7 digits"), ("12345", nil, "payCode", "5 digits"),
            ("", nil, "payCode", "empty"), ("123 456", nil, "payCode", "a space"), ("１２３４５６", nil, "payCode", "full-width digits"),
            ("1234567890", "1234", "payCode", "10 digits"), ("123456789", nil, "verificationCode", "9 digits without a verification code"),
            ("123456", "1234", "verificationCode", "6 digits with a verification code"),
            ("123456789", "12", "verificationCode", "a verification code of 2 digits"),
            ("123456789", "12a4", "verificationCode", "a verification code with a letter"),
        ] as [(String, String?, String, String)] {
            let reply = expectReply(await counter.blikPay(1000, code: code, verification: verification), 400, "blik_code_invalid", what)
            #expect(reply.errorField == field, "\(what): \(reply)")
        }
        expectReply(
            await counter.service.call("POST", "/terminal/v1/apm/blik/payments", bearer: counter.token, body: ["requestedAmount": 1000]), 400,
            "invalid_json", "no payCode")
        expectReply(
            await counter.service.call("POST", "/terminal/v1/apm/blik/payments", body: ["requestedAmount": 1000, "payCode": "123456"]), 401,
            "unauthorized", "no session")
        #expect(counter.wallet.log.blikPayments.isEmpty, "the wallet was never asked: \(counter.wallet.log.blikPayments)")
        #expect(await counter.historyTotal() == 0)
    }

    @Test("the card sale's rules for amount, tip, reference and currency: the same refusals, the wallet never asked")
    func cardRules() async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        for (amount, tip, currency, what) in [
            (0, nil, nil, "a zero amount"), (-5, nil, nil, "a negative amount"), (4_000_001, nil, nil, "over the terminal's limit"),
            (1000, 30000, nil, "a tip over the maximum"), (1000, nil, "EUR", "a currency other than the terminal's PLN"),
        ] as [(Int, Int?, String?, String)] {
            var card: [String: Any] = ["currency": currency ?? "PLN", "requestedAmount": amount]
            if let tip { card["tipAmount"] = tip }
            let sale = await counter.service.call("POST", "/terminal/v1/transactions/sale", bearer: counter.token, body: card)
            #expect((400..<500).contains(sale.status) && sale.errorCode != nil, "the card sale refuses \(what): \(sale)")
            let blik = await counter.blikPay(amount, code: "123456", tip: tip, extra: currency.map { ["currency": $0] } ?? [:])
            #expect(blik.status == sale.status && blik.errorCode == sale.errorCode, "\(what): BLIK \(blik) vs card \(sale)")
        }
        #expect(counter.wallet.log.blikPayments.isEmpty)
        counter.wallet.issueBlikCode("123456")
        expectReply(await counter.blikPay(1000, code: "123456", extra: ["currency": "PLN"]), 201, nil, "the terminal's own currency, named")
    }

    @Test("a terminal without blikEnabled refuses with blik_not_enabled, and a host whose region has no BLIK too")
    func notEnabled() async throws {
        let counter = try await QRCounter.blik(terminalID: "MBANK-T0202")
        defer { counter.stop() }
        counter.wallet.issueBlikCode("123456")
        expectReply(await counter.blikPay(1000, code: "123456"), 403, "blik_not_enabled", "MBANK-T0202 has blikEnabled false")
        let eu = try await QRCounter.open()
        defer { eu.stop() }
        expectReply(await eu.blikPay(1000, code: "123456"), 403, "blik_not_enabled", "EU-T0101: the EU region has no BLIK")
        #expect(counter.wallet.log.blikPayments.isEmpty && eu.wallet.log.blikPayments.isEmpty)
    }

    @Test("declined with each reason: DECLINED with its declineReason, response code and payment.failed", arguments: APMDeclineReason.allCases)
    func declined(reason: APMDeclineReason) async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        let id = try await counter.blikPayment(1000, "pay")
        expectReply(try await counter.notify(.orderDeclined, order: id, reason: reason.rawValue), 204, nil, "declined \(reason)")
        let reply = expectReply(await counter.poll(id), 200, nil, "poll")
        #expect(reply.string("transactionStatus") == "DECLINED" && reply.string("declineReason") == reason.rawValue, "\(reply)")
        #expect(reply.string("responseCode") == reason.response.code && reply.string("responseMsg") == reason.response.message, "\(reply)")
        #expect(await counter.webhooks(of: id).map(\.type) == ["payment.failed"])
        _ = try await counter.blikPayment(1000, code: "654321", "the terminal is free again")
    }
}
