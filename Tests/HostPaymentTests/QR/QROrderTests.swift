import Foundation
import HostTestSupport
import SandboxQRCode
import SandboxWire
import SandboxTestSupport
import Testing

/// A QR wallet payment made, polled and cancelled on the terminal API (docs/qr-payments.md), the
/// wallet played by HostTestSupport's ``WalletProviderDouble``.
@Suite("QR payments: the order, its poll and its cancel")
struct QROrderTests {
    @Test("a QR payment is NEW with the wallet's pay page as QR content, a scannable SVG of it, and apmTimeout to pay")
    func createAnswersTheQR() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let reply = expectReply(await counter.pay(1250, tip: 150, reference: "INV-QR-1", brand: "WECHATPAY"), 201, nil, "pay 12.50 by QR")
        let id = try #require(reply.string("transactionId"), "\(reply)")
        #expect(reply.string("transactionStatus") == "NEW", "\(reply)")
        #expect(reply.string("paymentMethod") == "QRCODE", "\(reply)")
        #expect(reply.string("transactionType") == "AUTH", "\(reply)")
        #expect(reply.string("brand") == "WECHATPAY" && reply.string("brandFullName") == "WeChat Pay", "\(reply)")
        #expect(reply.int("transactionAmount") == 1250 && reply.int("tipAmount") == 150, "\(reply)")
        #expect(reply.string("externalID") == "INV-QR-1" && reply.string("terminalId") == counter.id, "\(reply)")
        let qr = try #require(reply.string("qrCode"), "\(reply)")
        #expect(qr == "\(counter.wallet.url)/pay/\(id)", "the QR encodes the wallet's pay page of the order: \(reply)")
        // The order the wallet was asked for, signed.
        let asked = try #require(counter.wallet.log.orders.last)
        #expect(asked.orderId == id && asked.amount == 1250 && asked.currency == "EUR" && asked.brand == "WECHATPAY", "\(asked)")
        #expect(asked.merchantId == "EU-M01" && asked.terminalId == counter.id && asked.reference == "INV-QR-1", "\(asked)")
        #expect(asked.expiresInSeconds == 300, "EU-T0101's apmTimeout is 300 s: \(asked)")
        #expect(counter.wallet.log.unsigned == 0)
        // Five minutes to pay, on the host's clock.
        let created = try #require(parseTime(reply["transactionDate"]))
        let expires = try #require(parseTime(reply["expiresAt"]))
        #expect(abs(expires.timeIntervalSince(created) - 300) < 0.01, "\(reply)")
        // The SVG is the QR module's drawing of that URL (ImageMagick is not installed here to scan it).
        let svg = try #require(reply.string("qrCodeSVG"), "\(reply)")
        #expect(svg == (try QRCode(text: qr, errorCorrection: .medium).svg(moduleSize: 6, quietZone: 4)))
        // Polling answers the same order.
        let polled = expectReply(await counter.poll(id), 200, nil, "poll")
        #expect(polled.string("transactionStatus") == "NEW" && polled.string("qrCode") == qr, "\(polled)")
    }

    @Test("bad input gets the card sale's refusal for the same values, and the APM refusals their own codes")
    func badInput() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        // The card sale's rules, the same codes: compared with a card sale of the same values.
        for (amount, tip, reference, what) in [
            (0, nil, nil, "a zero amount"), (-5, nil, nil, "a negative amount"), (1_000_001, nil, nil, "over the terminal's limit"),
            (1000, 6000, nil, "a tip over the maximum"), (1000, 1000, nil, "a tip of the whole amount"),
            (1000, nil, String(repeating: "R", count: 300), "a reference too long"),
        ] as [(Int, Int?, String?, String)] {
            var card: [String: Any] = ["currency": "EUR", "requestedAmount": amount]
            if let tip { card["tipAmount"] = tip }
            if let reference { card["reference"] = reference }
            let sale = await counter.service.call("POST", "/terminal/v1/transactions/sale", bearer: counter.token, body: card)
            #expect(sale.status == 400 || sale.status == 422 || sale.status == 403, "the card sale refuses \(what): \(sale)")
            let qr = await counter.pay(amount, tip: tip, reference: reference)
            #expect(qr.status == sale.status && qr.errorCode == sale.errorCode, "\(what): QR \(qr) vs card \(sale)")
        }
        expectReply(await counter.pay(1000, brand: "TWINT"), 400, "apm_brand_unavailable", "a brand the terminal has not")
        expectReply(
            await counter.service.call("POST", "/terminal/v1/apm/qr/payments", bearer: counter.token, body: ["requestedAmount": 1000]), 400,
            "invalid_json", "no brand")
        expectReply(
            await counter.service.call("POST", "/terminal/v1/apm/qr/payments", bearer: counter.token, raw: "{\"requestedAmount\": "), 400,
            "invalid_json", "not JSON")
        expectReply(
            await counter.service.call("POST", "/terminal/v1/apm/qr/payments", body: ["requestedAmount": 1000, "brand": "ALIPAY"]), 401,
            "unauthorized", "no session")
        expectReply(await counter.poll("no-such-order"), 404, "transaction_not_found", "poll an unknown id")
        expectReply(await counter.poll("bad%21id"), 400, "invalid_request", "poll a malformed id")
        expectReply(await counter.cancel("no-such-order"), 404, "transaction_not_found", "cancel an unknown id")
        // Nothing was made by any of them.
        #expect(counter.wallet.log.orders.isEmpty, "\(counter.wallet.log.orders)")
    }

    @Test("a terminal without APMs refuses a QR payment with apm_not_enabled")
    func apmNotEnabled() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let kiosk = try counter.host.terminal("without APMs") { $0.id == "EU-T0102" }
        let device = try await counter.host.register(kiosk)
        let token = try await counter.host.login(device, autoLogin: kiosk.autoLogin)
        expectReply(
            await counter.service.call("POST", "/terminal/v1/apm/qr/payments", bearer: token, body: ["requestedAmount": 1000, "brand": "ALIPAY"]),
            403, "apm_not_enabled", "EU-T0102 has apmEnabled false")
        #expect(counter.wallet.log.orders.isEmpty)
    }

    @Test("one payment at a time per terminal, card or QR; an Idempotency-Key answers the first order again")
    func busyAndIdempotent() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let first = expectReply(await counter.pay(1000, key: "qr-key-1"), 201, nil, "the first order")
        let id = try #require(first.string("transactionId"))
        let again = expectReply(await counter.pay(1000, key: "qr-key-1"), 201, nil, "the same key and body")
        #expect(again.string("transactionId") == id && again.headers.first(name: "Idempotent-Replayed") == "true", "\(again)")
        #expect(counter.wallet.log.orders.count == 1, "a replay makes no second order: \(counter.wallet.log.orders)")
        expectReply(await counter.pay(2000, key: "qr-key-1"), 409, "idempotency_key_reused", "the same key, another body")
        expectReply(await counter.pay(1000), 409, "terminal_busy", "a second QR order while the first waits")
        expectReply(
            await counter.service.call("POST", "/terminal/v1/transactions/sale", bearer: counter.token, body: ["currency": "EUR", "requestedAmount": 1000]),
            409, "terminal_busy", "a card sale while the QR order waits")
        // A card step on a QR order is refused: it takes no card.
        expectReply(
            await counter.service.call("POST", "/terminal/v1/transactions/\(id)/card", bearer: counter.token, body: ["readerOutcome": "cancelled"]),
            409, "transaction_wrong_state", "a card for the QR order")
        expectReply(await counter.cancel(id), 200, nil, "cancel frees the terminal")
        expectReply(await counter.pay(1000), 201, nil, "the next order")
    }

    @Test("a wallet that does not answer: 502 apm_provider_unavailable, and nothing stays in flight")
    func walletDown() async throws {
        // Port 1 (tcpmux): nothing listens there, and no test can take it (a free port of the
        // system could be another test's listener by the time the host calls it).
        let counter = try await QRCounter.open(walletURL: "http://127.0.0.1:1")
        defer { counter.stop() }
        expectReply(await counter.pay(1000), 502, "apm_provider_unavailable", "pay with the wallet down")
        let history = expectReply(
            await counter.service.call("GET", "/terminal/v1/transactions", bearer: counter.token), 200, nil, "history")
        #expect(history.int("total") == 0, "no transaction was kept: \(history)")
        expectReply(
            await counter.service.call("POST", "/terminal/v1/transactions/sale", bearer: counter.token, body: ["currency": "EUR", "requestedAmount": 1000]),
            201, nil, "the terminal is free for a card sale")
    }

    @Test("cancel: USER_CANCELLED with its webhook, the order closed at the wallet; a second cancel is apm_order_closed")
    func cancel() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let id = try await counter.order(1000, "order")
        let cancelled = expectReply(await counter.cancel(id, reason: "customer left"), 200, nil, "cancel")
        #expect(cancelled.string("transactionStatus") == "USER_CANCELLED", "\(cancelled)")
        #expect(cancelled.string("qrCodeSVG") == nil, "a closed order draws no QR: \(cancelled)")
        #expect(await eventually { counter.wallet.log.closes.contains { $0.order == id && $0.reason == "cancelled" } }, "\(counter.wallet.log.closes)")
        let hooks = await counter.webhooks(of: id)
        #expect(hooks.map(\.type) == ["payment.canceled"], "\(hooks.map(\.type))")
        #expect(hooks.first?.payload["paymentMethod"] as? String == "QRCODE" && hooks.first?.payload["cardBrand"] as? String == "ALIPAY", "\(hooks)")
        expectReply(await counter.cancel(id), 409, "apm_order_closed", "cancel again")
        expectReply(await counter.poll(id), 200, nil, "poll the cancelled order")
    }

    @Test("a close the wallet answers with 503 is sent again until it is taken")
    func closeIsRetried() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let id = try await counter.order(1000, "order")
        counter.wallet.answerEverything(with: 503)
        expectReply(await counter.cancel(id), 200, nil, "cancel while the wallet answers 503")
        #expect(!counter.wallet.log.closes.contains { $0.order == id }, "refused so far")
        counter.wallet.answerEverything(with: nil)
        #expect(await eventually { counter.wallet.log.closes.contains { $0.order == id && $0.reason == "cancelled" } }, "\(counter.wallet.log.closes)")
    }
}
