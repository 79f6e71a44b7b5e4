import Foundation
import HostTestSupport
import SandboxWire
import SandboxTestSupport
import Testing

/// What ends a BLIK payment besides the customer's approval (docs/blik.md, "The payment"): the
/// wallet's expiry, the app's cancel, the host's blikTimeout by the clock, one code on two
/// terminals, the busy rule, and a wallet that does not answer.
@Suite("BLIK payments: expiry, cancel, the race and the busy rule")
struct BlikOutcomeTests {
    @Test("the customer does not answer and the wallet expires the order: TIMEOUT with payment.failed")
    func walletExpired() async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        let id = try await counter.blikPayment(1000, "pay")
        expectReply(try await counter.notify(.orderExpired, order: id), 204, nil, "expired at the wallet")
        #expect(expectReply(await counter.poll(id), 200, nil, "poll").string("transactionStatus") == "TIMEOUT")
        #expect(await counter.webhooks(of: id).map(\.type) == ["payment.failed"])
        expectReply(try await counter.notify(.orderPaid, order: id, paymentId: "late"), 409, "apm_order_closed", "approved too late")
    }

    @Test("the app cancels: USER_CANCELLED with payment.canceled (BLIK), the order closed at the wallet; then a late approval is refused")
    func cancel() async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        let id = try await counter.blikPayment(1000, "pay")
        let cancelled = expectReply(await counter.cancel(id, reason: "customer left"), 200, nil, "cancel")
        #expect(cancelled.string("transactionStatus") == "USER_CANCELLED" && cancelled.string("paymentMethod") == "BLIK", "\(cancelled)")
        #expect(await eventually { counter.wallet.log.closes.contains { $0.order == id && $0.reason == "cancelled" } }, "\(counter.wallet.log.closes)")
        let hooks = await counter.webhooks(of: id)
        #expect(hooks.map(\.type) == ["payment.canceled"] && hooks.first?.payload["paymentMethod"] as? String == "BLIK", "\(hooks)")
        expectReply(try await counter.notify(.orderPaid, order: id, paymentId: "late"), 409, "apm_order_closed", "approved after the cancel")
        expectReply(await counter.cancel(id), 409, "apm_order_closed", "cancel again")
    }

    @Test("blikTimeout by the clock: TIMEOUT and payment.failed with nobody polling, the order closed, a late approval refused")
    func hostDeadline() async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        let id = try await counter.blikPayment(1000, "pay")
        // The sandbox clock also runs with real time: a minute's margin for a loaded machine.
        await counter.advance(60, "a minute in")
        #expect(await counter.webhooks(of: id).isEmpty, "still waiting at 60 s")
        await counter.advance(61, "past blikTimeout (120 s)")
        #expect(await counter.webhooks(of: id).map(\.type) == ["payment.failed"], "the expiry webhook is written at the clock move")
        #expect(await eventually { counter.wallet.log.closes.contains { $0.order == id && $0.reason == "expired" } }, "\(counter.wallet.log.closes)")
        expectReply(try await counter.notify(.orderPaid, order: id, paymentId: "late"), 409, "apm_order_closed", "approved too late")
        let reply = expectReply(await counter.poll(id), 200, nil, "poll")
        #expect(reply.string("transactionStatus") == "TIMEOUT" && (reply.string("responseMsg") ?? "").contains("blikTimeout"), "\(reply)")
        _ = try await counter.blikPayment(1000, code: "999999", "the terminal is free again")
    }

    @Test("the same code on two terminals at the same moment, 10 times: one payment, one blik_code_used, the loser left free")
    func twoTerminalRace() async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        let other = try await counter.secondTerminal("MBANK-T0103")
        for round in 0..<10 {
            let code = String(100_000 + round)
            counter.wallet.issueBlikCode(code)
            async let first = counter.blikPay(1000, code: code)
            async let second = counter.blikPay(1000, code: code, token: other)
            let replies = await [(first, counter.token), (second, other)]
            let won = replies.filter { $0.0.status == 201 }
            let lost = replies.filter { $0.0.status == 409 && $0.0.errorCode == "blik_code_used" }
            #expect(won.count == 1 && lost.count == 1, "round \(round): \(replies.map(\.0))")
            guard let winner = won.first, let loser = lost.first, let id = winner.0.string("transactionId") else { continue }
            // The loser's terminal keeps nothing and is not busy: its card sale goes through.
            let sale = await counter.service.call(
                "POST", "/terminal/v1/transactions/sale", bearer: loser.1, body: ["currency": "PLN", "requestedAmount": 100])
            #expect(sale.status == 201, "round \(round): the loser is free: \(sale)")
            if let sid = sale.string("transactionId") {
                _ = await counter.service.call(
                    "POST", "/terminal/v1/transactions/\(sid)/card", bearer: loser.1, body: ["readerOutcome": "cancelled"])
            }
            expectReply(
                await counter.service.call("POST", "/terminal/v1/apm/transactions/\(id)/cancel", bearer: winner.1, body: [:]), 200, nil,
                "round \(round): the winner cancels")
        }
        let paidOnce = counter.wallet.log.blikPayments.count
        #expect(paidOnce == 20, "both terminals asked the wallet each round: \(paidOnce)")
    }

    @Test("the customer's answer or the app's cancel overtakes the wallet's answer: the payment keeps that outcome")
    func outcomeBeforeTheAnswer() async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        let wallet = counter.wallet, service = counter.service, token = counter.token
        // The wallet approves before it answers the host.
        wallet.beforeBlikAnswer { asked in
            _ = try? wallet.notifyNow(wallet.notification(.orderPaid, order: asked.paymentId, paymentId: "early"), host: service)
        }
        wallet.issueBlikCode("121212")
        let paid = expectReply(await counter.blikPay(1000, code: "121212"), 201, nil, "approved before the answer")
        #expect(paid.string("transactionStatus") == "CLEARED" && paid.string("providerReference") == "early", "\(paid)")
        // The app cancels before the wallet answers.
        wallet.beforeBlikAnswer { asked in
            _ = service.call("POST", "/terminal/v1/apm/transactions/\(asked.paymentId)/cancel", bearer: token, raw: "")
        }
        wallet.issueBlikCode("343434")
        let cancelled = expectReply(await counter.blikPay(1000, code: "343434"), 201, nil, "cancelled before the answer")
        let id = try #require(cancelled.string("transactionId"))
        #expect(cancelled.string("transactionStatus") == "USER_CANCELLED", "\(cancelled)")
        #expect(await eventually { wallet.log.closes.contains { $0.order == id && $0.reason == "cancelled" } }, "\(wallet.log.closes)")
        wallet.beforeBlikAnswer(nil)
        _ = try await counter.blikPayment(1000, code: "565656", "the terminal is free")
    }

    @Test("one payment at a time per terminal; an Idempotency-Key answers the first payment again without asking the wallet")
    func busyAndIdempotent() async throws {
        let counter = try await QRCounter.blik()
        defer { counter.stop() }
        counter.wallet.issueBlikCode("111111")
        let first = expectReply(await counter.blikPay(1000, code: "111111", key: "blik-key-1"), 201, nil, "the first payment")
        let id = try #require(first.string("transactionId"))
        let again = expectReply(await counter.blikPay(1000, code: "111111", key: "blik-key-1"), 201, nil, "the same key and body")
        #expect(again.string("transactionId") == id && again.headers.first(name: "Idempotent-Replayed") == "true", "\(again)")
        #expect(counter.wallet.log.blikPayments.count == 1, "a replay asks the wallet nothing")
        counter.wallet.issueBlikCode("222222")
        expectReply(await counter.blikPay(1000, code: "222222"), 409, "terminal_busy", "a second BLIK payment while the first waits")
        expectReply(
            await counter.service.call("POST", "/terminal/v1/transactions/sale", bearer: counter.token, body: ["currency": "PLN", "requestedAmount": 1000]),
            409, "terminal_busy", "a card sale while the BLIK payment waits")
        #expect(counter.wallet.log.blikPayments.count == 1, "a busy terminal does not spend the customer's code")
        expectReply(await counter.cancel(id), 200, nil, "cancel frees the terminal")
        expectReply(await counter.blikPay(1000, code: "222222"), 201, nil, "the code still pays")
    }

    @Test("a wallet that does not answer: 502 apm_provider_unavailable, nothing in flight")
    func walletDown() async throws {
        let counter = try await QRCounter.blik(walletURL: "http://127.0.0.1:\(freePort())")
        defer { counter.stop() }
        expectReply(await counter.blikPay(1000, code: "123456"), 502, "apm_provider_unavailable", "pay with the wallet down")
        #expect(await counter.historyTotal() == 0, "no transaction was kept")
        expectReply(
            await counter.service.call("POST", "/terminal/v1/transactions/sale", bearer: counter.token, body: ["currency": "PLN", "requestedAmount": 1000]),
            201, nil, "the terminal is free for a card sale")
    }
}
