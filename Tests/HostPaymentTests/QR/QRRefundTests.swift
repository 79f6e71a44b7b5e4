import Foundation
import HostTestSupport
import SandboxWire
import SandboxTestSupport
import Testing

/// QR refunds (doQRRefund): several and partial up to the payment's amount, paid out by the wallet
/// asynchronously within apmRefundTimeout; and what history, details and statistics show of QR rows.
@Suite("QR payments: refunds, restarts and the reads")
struct QRRefundTests {
    /// A CLEARED QR payment of `amount`; its id.
    static func paid(_ counter: QRCounter, _ amount: Int) async throws -> String {
        let id = try await counter.order(amount, "order \(amount)")
        expectReply(try await counter.notify(.orderPaid, order: id, paymentId: "wpay_\(id.prefix(8))"), 204, nil, "paid")
        return id
    }

    @Test("partial refunds, several, up to the amount: each sent to the wallet, CLEARED on its word; the payment REFUNDED once nothing is left")
    func partialRefunds() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let payment = try await Self.paid(counter, 1000)
        let first = expectReply(await counter.refund(payment, amount: 300, reference: "RMA-1"), 201, nil, "refund 3.00")
        let refund1 = try #require(first.string("transactionId"))
        #expect(first.string("transactionType") == "REFUND" && first.string("transactionStatus") == "ONGOING", "\(first)")
        #expect(first.string("refundedTransactionId") == payment && first.string("brand") == "ALIPAY", "\(first)")
        #expect(first.string("qrCode") == nil && first.string("paymentMethod") == "QRCODE", "\(first)")
        let created = try #require(parseTime(first["transactionDate"]))
        #expect(abs((parseTime(first["expiresAt"]) ?? created).timeIntervalSince(created) - 60) < 0.01, "apmRefundTimeout 60 s: \(first)")
        #expect(await eventually { counter.wallet.log.refunds.contains { $0.refundId == refund1 && $0.orderId == payment && $0.amount == 300 } })
        expectReply(await counter.refund(payment, amount: 100), 409, "terminal_busy", "a second refund while the first waits")
        expectReply(try await counter.notify(.refundSucceeded, order: payment, refund: refund1, paymentId: "wref_1"), 204, nil, "refund paid out")
        let done = expectReply(await counter.poll(refund1), 200, nil, "poll the refund")
        #expect(done.string("transactionStatus") == "CLEARED" && done.string("providerReference") == "wref_1", "\(done)")
        var sale = expectReply(await counter.poll(payment), 200, nil, "poll the payment")
        #expect(sale.string("transactionStatus") == "CLEARED" && sale["refundable"] as? Bool == true, "7.00 left: \(sale)")
        expectReply(await counter.refund(payment, amount: 701), 400, "refund_over_amount", "more than is left")
        let second = expectReply(await counter.refund(payment, amount: 700), 201, nil, "the rest")
        let refund2 = try #require(second.string("transactionId"))
        expectReply(try await counter.notify(.refundSucceeded, order: payment, refund: refund2, paymentId: "wref_2"), 204, nil, "paid out")
        sale = expectReply(await counter.poll(payment), 200, nil, "poll the payment")
        #expect(sale.string("transactionStatus") == "REFUNDED" && sale["refundable"] as? Bool == false, "\(sale)")
        expectReply(await counter.refund(payment, amount: 1), 409, "already_refunded", "refund a refunded payment")
        #expect(await counter.webhooks(of: refund1).map(\.type) == ["refund.succeeded"])
        #expect(await counter.webhooks(of: refund2).first?.payload["originalPaymentId"] as? String == payment)
        // History and details tell the same story.
        let detail = expectReply(
            await counter.service.call("GET", "/terminal/v1/transactions/\(payment)", bearer: counter.token), 200, nil, "details")
        #expect(detail.string("transactionStatus") == "REFUNDED" && detail.string("paymentMethod") == "QRCODE", "\(detail)")
        #expect(detail.string("cardType") == "ALIPAY" && detail["cancellable"] as? Bool == false, "\(detail)")
        #expect(detail["isReversalAvailable"] as? Bool == false && detail.string("authId") == "wpay_\(payment.prefix(8))", "\(detail)")
    }

    @Test("refusals: a payment not paid, a card sale, a refund of a refund, no refunds on the terminal, bad amounts")
    func refusals() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let open = try await counter.order(1000, "an unpaid order")
        expectReply(await counter.refund(open, amount: 100), 409, "transaction_not_refundable", "refund an unpaid order")
        expectReply(await counter.cancel(open), 200, nil, "cancel it")
        expectReply(await counter.refund(open, amount: 100), 409, "transaction_not_refundable", "refund a cancelled order")
        expectReply(await counter.refund("no-such-payment", amount: 100), 404, "transaction_not_found", "refund an unknown payment")
        let card = expectReply(
            await counter.service.call(
                "POST", "/terminal/v1/transactions/sale", bearer: counter.token,
                body: ["currency": "EUR", "requestedAmount": 1000, "readerOutcome": "cancelled"]),
            201, nil, "a card sale")
        let cardID = try #require(card.string("transactionId"))
        expectReply(await counter.refund(cardID, amount: 100), 409, "transaction_not_refundable", "a QR refund of a card sale")
        let payment = try await Self.paid(counter, 1000)
        expectReply(await counter.refund(payment, amount: 0), 400, "invalid_amount", "a zero refund")
        expectReply(await counter.refund(payment, amount: 1001), 400, "refund_over_amount", "over the payment")
        // A card refund of a QR payment is refused: it is refunded by QR.
        expectReply(
            await counter.service.call(
                "POST", "/terminal/v1/transactions/refund", bearer: counter.token,
                body: ["currency": "EUR", "requestedAmount": 100, "transactionId": payment, "readerOutcome": "cancelled"]),
            409, "transaction_not_refundable", "a card refund of a QR payment")
        expectReply(
            await counter.service.call("POST", "/terminal/v1/transactions/\(payment)/reversal", bearer: counter.token, body: [:]), 409,
            "transaction_not_cancellable", "a card reversal of a QR payment")
        let refund = try #require(expectReply(await counter.refund(payment, amount: 100), 201, nil, "refund").string("transactionId"))
        expectReply(try await counter.notify(.refundSucceeded, order: payment, refund: refund), 204, nil, "paid out")
        expectReply(await counter.refund(refund, amount: 10), 409, "transaction_not_refundable", "a refund of a refund")
        expectReply(await counter.cancel(refund), 409, "transaction_wrong_state", "cancel a refund")
    }

    @Test("the wallet refuses a refund: DECLINED with its reason and refund.failed; the amount can be refunded again")
    func refundRefused() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let payment = try await Self.paid(counter, 1000)
        let refund = try #require(expectReply(await counter.refund(payment, amount: 1000), 201, nil, "refund all").string("transactionId"))
        expectReply(
            try await counter.notify(.refundFailed, order: payment, refund: refund, reason: "insufficient_funds"), 204, nil, "refused")
        let reply = expectReply(await counter.poll(refund), 200, nil, "poll the refund")
        #expect(reply.string("transactionStatus") == "DECLINED" && reply.string("declineReason") == "insufficient_funds", "\(reply)")
        #expect(await counter.webhooks(of: refund).map(\.type) == ["refund.failed"])
        expectReply(try await counter.notify(.refundSucceeded, order: payment, refund: refund), 409, "apm_order_closed", "paid out after refusing")
        expectReply(await counter.refund(payment, amount: 1000), 201, nil, "refund all again")
    }

    @Test("a refund the wallet leaves unanswered for apmRefundTimeout: TIMEOUT and refund.failed, a later success refused with 409")
    func refundTimeout() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let payment = try await Self.paid(counter, 1000)
        let refund = try #require(expectReply(await counter.refund(payment, amount: 400), 201, nil, "refund").string("transactionId"))
        await counter.advance(61, "past apmRefundTimeout")
        #expect(await counter.webhooks(of: refund).map(\.type) == ["refund.failed"], "written at the clock move")
        #expect(expectReply(await counter.poll(refund), 200, nil, "poll").string("transactionStatus") == "TIMEOUT")
        expectReply(
            try await counter.notify(.refundSucceeded, order: payment, refund: refund), 409, "apm_order_closed",
            "the wallet answers too late: it must not pay out")
        let sale = expectReply(await counter.poll(payment), 200, nil, "poll the payment")
        #expect(sale.string("transactionStatus") == "CLEARED" && sale["refundable"] as? Bool == true, "\(sale)")
        expectReply(await counter.refund(payment, amount: 1000), 201, nil, "the whole amount is refundable again")
    }

    @Test("a host restarted mid-order: the order and the calls it owes the wallet survive, and are sent once the wallet is back")
    func restart() async throws {
        let directory = TemporaryDirectory()
        let counter = try await QRCounter.open(directory: directory)
        let id = try await counter.order(1000, "order")
        let token = counter.token
        let port = UInt16(URL(string: counter.wallet.url)!.port!)
        counter.wallet.stop()
        expectReply(await counter.cancel(id), 200, nil, "cancel while the wallet is down")
        counter.running.stop()
        // Started again on the same database, the wallet back on its port.
        let wallet = try WalletProviderDouble(region: "EU", port: port)
        defer { wallet.stop() }
        // The same sandbox clock: the restart takes no time of the session or the order.
        let again = try InProcessHost(
            region: "EU", directory: directory, dispatches: false, walletURL: wallet.url, clock: counter.running.clock)
        defer { again.stop() }
        let reply = expectReply(
            await again.service.call("GET", "/terminal/v1/apm/transactions/\(id)", bearer: token), 200, nil, "poll after the restart")
        #expect(reply.string("transactionStatus") == "USER_CANCELLED", "\(reply)")
        #expect(await eventually { wallet.log.closes.contains { $0.order == id && $0.reason == "cancelled" } }, "\(wallet.log.closes)")
    }

    @Test("history, count, details, statistics and the back office list QR payments with paymentMethod QRCODE and the brand as cardType")
    func reads() async throws {
        let counter = try await QRCounter.open()
        defer { counter.stop() }
        let payment = try await Self.paid(counter, 1500)
        let declined = try await counter.order(700, "a declined order")
        expectReply(try await counter.notify(.orderDeclined, order: declined, reason: "limit_exceeded"), 204, nil, "declined")
        let history = expectReply(
            await counter.service.call("GET", "/terminal/v1/transactions?paymentMethod=QRCODE", bearer: counter.token), 200, nil, "history")
        let items = history.objects("items")
        #expect(history.int("total") == 2 && items.count == 2, "\(history)")
        #expect(items.allSatisfy { $0["paymentMethod"] as? String == "QRCODE" && $0["cardType"] as? String == "ALIPAY" }, "\(items)")
        expectReply(
            await counter.service.call("GET", "/terminal/v1/transactions?paymentMethod=CARD", bearer: counter.token), 200, nil,
            "card history")
        let count = expectReply(
            await counter.service.call("GET", "/terminal/v1/transactions/count?paymentMethod=QRCODE&status=CLEARED", bearer: counter.token),
            200, nil, "count")
        #expect(count.int("count") == 1, "\(count)")
        let from = "2000-01-01T00:00:00Z", to = "2100-01-01T00:00:00Z"
        let stats = expectReply(
            await counter.service.call(
                "GET", "/terminal/v1/statistics?fromDate=\(from)&toDate=\(to)&statisticsType=brand", bearer: counter.token), 200, nil,
            "statistics by brand")
        let alipay = stats.objects("statistics").first { $0["description"] as? String == "ALIPAY" }
        let item = (alipay?["items"] as? [[String: Any]])?.first
        #expect(item?["amount"] as? Int == 1500 && item?["count"] as? Int == 1, "the paid QR payment only: \(stats)")
        let backOffice = expectReply(
            await counter.service.call("GET", "/backoffice/v1/transactions?terminalId=\(counter.id)", bearer: counter.backOfficeKey), 200, nil,
            "back office list")
        #expect(backOffice.text.contains(payment) && backOffice.text.contains("QRCODE"), "\(backOffice)")
        // The receipt names the wallet and its payment id.
        let receipt = expectReply(
            await counter.service.call(
                "POST", "/terminal/v1/transactions/\(payment)/receipt", bearer: counter.token, body: ["receiptType": "QR"]), 200, nil,
            "a receipt of the QR payment")
        let page = await counter.service.fetch(try #require(receipt.string("url"), "\(receipt)"))
        #expect(page.status == 200 && page.text.contains("Alipay+ (QR wallet)") && page.text.contains("wpay_\(payment.prefix(8))"), "\(page)")
    }
}
