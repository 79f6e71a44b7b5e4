import Foundation
import HostTestSupport
import SandboxWire
import SandboxTestSupport
import Testing

/// BLIK refunds (doBlikRefund), a host restarted mid-payment, and what the reads show of BLIK.
@Suite("BLIK payments: refunds, restarts and the reads")
struct BlikRefundTests {
    /// A CLEARED BLIK payment of `amount`; its id.
    static func paid(_ counter: QRCounter, _ amount: Int, code: String = "123456") async throws -> String {
        let id = try await counter.blikPayment(amount, code: code, "pay \(amount)")
        expectReply(try await counter.notify(.orderPaid, order: id, paymentId: "blik_\(id.prefix(8))"), 204, nil, "approved")
        return id
    }

    @Test("partial then full: each sent to the wallet and CLEARED on its word, the payment REFUNDED once nothing is left")
    func partialAndFull() async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        let payment = try await Self.paid(counter, 5000)
        let first = expectReply(await counter.blikRefund(payment, amount: 2000, reference: "RMA-B1"), 201, nil, "refund 20.00")
        let refund1 = try #require(first.string("transactionId"))
        #expect(first.string("transactionType") == "REFUND" && first.string("transactionStatus") == "ONGOING", "\(first)")
        #expect(first.string("paymentMethod") == "BLIK" && first.string("refundedTransactionId") == payment, "\(first)")
        #expect(await eventually { counter.wallet.log.refunds.contains { $0.refundId == refund1 && $0.orderId == payment && $0.amount == 2000 } })
        expectReply(await counter.blikRefund(payment, amount: 100), 409, "terminal_busy", "a second refund while the first waits")
        expectReply(try await counter.notify(.refundSucceeded, order: payment, refund: refund1, paymentId: "bref_1"), 204, nil, "paid back")
        #expect(expectReply(await counter.poll(refund1), 200, nil, "poll the refund").string("transactionStatus") == "CLEARED")
        var sale = expectReply(await counter.poll(payment), 200, nil, "poll the payment")
        #expect(sale.string("transactionStatus") == "CLEARED" && sale["refundable"] as? Bool == true, "30.00 left: \(sale)")
        expectReply(await counter.blikRefund(payment, amount: 3001), 400, "refund_over_amount", "more than is left")
        let second = expectReply(await counter.blikRefund(payment, amount: 3000), 201, nil, "the rest")
        let refund2 = try #require(second.string("transactionId"))
        expectReply(try await counter.notify(.refundSucceeded, order: payment, refund: refund2, paymentId: "bref_2"), 204, nil, "paid back")
        sale = expectReply(await counter.poll(payment), 200, nil, "poll the payment")
        #expect(sale.string("transactionStatus") == "REFUNDED" && sale["refundable"] as? Bool == false, "\(sale)")
        expectReply(await counter.blikRefund(payment, amount: 1), 409, "already_refunded", "refund a refunded payment")
        #expect(await counter.webhooks(of: refund1).map(\.type) == ["refund.succeeded"])
        #expect(await counter.webhooks(of: refund2).first?.payload["paymentMethod"] as? String == "BLIK")
    }

    @Test("each route refunds its own: a QR refund of a BLIK payment, a BLIK refund of a card sale, an unpaid payment are refused")
    func refusals() async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        let open = try await counter.blikPayment(1000, "an unanswered payment")
        expectReply(await counter.blikRefund(open, amount: 100), 409, "transaction_not_refundable", "refund a payment not approved")
        expectReply(await counter.cancel(open), 200, nil, "cancel it")
        let payment = try await Self.paid(counter, 1000, code: "654321")
        let qr = expectReply(await counter.refund(payment, amount: 100), 409, "transaction_not_refundable", "a QR refund of a BLIK payment")
        #expect(qr.errorField == "refundedTransactionId", "\(qr)")
        expectReply(
            await counter.service.call(
                "POST", "/terminal/v1/transactions/refund", bearer: counter.token,
                body: ["currency": "PLN", "requestedAmount": 100, "transactionId": payment, "readerOutcome": "cancelled"]), 409,
            "transaction_not_refundable",
            "a card refund of a BLIK payment")
        expectReply(await counter.blikRefund("no-such-payment", amount: 100), 404, "transaction_not_found", "an unknown payment")
        expectReply(await counter.blikRefund(payment, amount: 0), 400, "invalid_amount", "a zero amount")
        #expect(counter.wallet.log.refunds.isEmpty, "none reached the wallet: \(counter.wallet.log.refunds)")
    }

    @Test("a host restarted mid-payment keeps it ONGOING with its deadline; the approval after the restart clears it")
    func restart() async throws {
        let directory = TemporaryDirectory()
        let counter = try await QRCounter.blik(directory: directory)
        let id = try await counter.blikPayment(2500, "pay")
        let token = counter.token
        counter.running.stop()
        // The same sandbox clock: the restart takes no time of the payment's window.
        let again = try InProcessHost(
            region: "MBANK", directory: directory, dispatches: false, walletURL: counter.wallet.url, clock: counter.running.clock)
        defer {
            again.stop()
            counter.wallet.stop()
        }
        let polled = expectReply(
            await again.service.call("GET", "/terminal/v1/apm/transactions/\(id)", bearer: token), 200, nil, "poll after the restart")
        #expect(polled.string("transactionStatus") == "ONGOING" && polled.string("paymentMethod") == "BLIK", "\(polled)")
        #expect(polled.string("expiresAt") != nil, "\(polled)")
        expectReply(try await counter.wallet.notify(counter.wallet.notification(.orderPaid, order: id, paymentId: "blik_r"), host: again.service), 204, nil, "approved")
        let paid = expectReply(
            await again.service.call("GET", "/terminal/v1/apm/transactions/\(id)", bearer: token), 200, nil, "poll after the approval")
        #expect(paid.string("transactionStatus") == "CLEARED" && paid.string("providerReference") == "blik_r", "\(paid)")
    }

    @Test("history, count, details, statistics and the receipt show BLIK payments (paymentMethod BLIK, cardType BLIK)")
    func reads() async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        let payment = try await Self.paid(counter, 1500)
        let declined = try await counter.blikPayment(700, code: "500500", "a declined payment")
        expectReply(try await counter.notify(.orderDeclined, order: declined, reason: "insufficient_funds"), 204, nil, "declined")
        let history = expectReply(
            await counter.service.call("GET", "/terminal/v1/transactions?paymentMethod=BLIK", bearer: counter.token), 200, nil, "history")
        let items = history.objects("items")
        #expect(history.int("total") == 2 && items.allSatisfy { $0["paymentMethod"] as? String == "BLIK" && $0["cardType"] as? String == "BLIK" }, "\(history)")
        let count = expectReply(
            await counter.service.call("GET", "/terminal/v1/transactions/count?paymentMethod=BLIK&status=CLEARED", bearer: counter.token),
            200, nil, "count")
        #expect(count.int("count") == 1, "\(count)")
        let detail = expectReply(
            await counter.service.call("GET", "/terminal/v1/transactions/\(payment)", bearer: counter.token), 200, nil, "details")
        #expect(detail.string("paymentMethod") == "BLIK" && detail.string("transactionStatus") == "CLEARED", "\(detail)")
        let from = "2000-01-01T00:00:00Z", to = "2100-01-01T00:00:00Z"
        let stats = expectReply(
            await counter.service.call(
                "GET", "/terminal/v1/statistics?fromDate=\(from)&toDate=\(to)&statisticsType=brand", bearer: counter.token), 200, nil,
            "statistics by brand")
        let blik = stats.objects("statistics").first { $0["description"] as? String == "BLIK" }
        let item = (blik?["items"] as? [[String: Any]])?.first
        #expect(item?["amount"] as? Int == 1500 && item?["count"] as? Int == 1, "the approved payment only: \(stats)")
        let receipt = expectReply(
            await counter.service.call(
                "POST", "/terminal/v1/transactions/\(payment)/receipt", bearer: counter.token, body: ["receiptType": "QR"]), 200, nil,
            "a receipt of the BLIK payment")
        let page = await counter.service.fetch(try #require(receipt.string("url"), "\(receipt)"))
        #expect(page.status == 200 && page.text.contains("BLIK reference") && page.text.contains("blik_\(payment.prefix(8))"), "\(page)")
        #expect(!page.text.contains("QR wallet"), "a BLIK payment is no QR wallet's: \(page)")
    }
}
