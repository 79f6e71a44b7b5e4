import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

/// Refunds (REFUNDED) and reversals (CANCELLED / USER_CANCELLED) with every rule of
/// docs/card-payments.md "Rules".
@Suite("Card payments: refunds and reversals")
struct RefundReversalTests {
    /// A refund of something that is not a CLEARED sale (a refund, a cancelled or declined sale).
    let notRefundable: Set<String> = ["transaction_not_refundable", "transaction_wrong_state"]

    @Test("refund: ≤ original, once, only when no longer cancellable, same currency; the original becomes REFUNDED")
    func refunds() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label

            let a = try await till.cleared(amount: 5000, "sale A 50.00")
            let fresh = expectTransaction(await till.details(a), 200, "CLEARED", "\(l) A right after the sale")
            #expect(fresh.bool("cancellable") == true, "\(l) the latest cleared sale is cancellable: \(fresh)")
            #expect(fresh.bool("refundable") == false, "\(l) a cancellable sale is not refundable: \(fresh)")
            await till.refused(409, "transaction_still_cancellable", "refund A while it can still be reversed") {
                await till.refund(a, amount: 1000)
            }

            // Another sale: A is no longer the latest, so it is refundable instead.
            _ = try await till.cleared("mc", amount: 1000, "sale B 10.00")
            let older = expectTransaction(await till.details(a), 200, "CLEARED", "\(l) A after sale B")
            #expect(older.bool("cancellable") == false, "\(l) A after B must not be cancellable: \(older)")
            #expect(older.bool("refundable") == true, "\(l) A after B must be refundable: \(older)")

            await till.refused(400, "refund_over_amount", "refund 50.01 of A (50.00)") {
                await till.refund(a, amount: 5001)
            }
            await till.refused(400, "currency_mismatch", "refund A in USD") {
                await till.refund(a, amount: 1000, currency: "USD")
            }
            await till.refused(400, "invalid_currency", "refund A in ABC") {
                await till.refund(a, amount: 1000, currency: "ABC")
            }
            await till.refused(400, "invalid_amount", "refund 0 of A") { await till.refund(a, amount: 0) }

            let payload = try await till.tap("visa", amount: 2000)
            let refund = expectTransaction(
                await till.refund(a, amount: 2000, payload: payload), 201, "CLEARED", "\(l) refund 20.00 of A with the card")
            #expect(refund.string("transactionType") == "REFUND", "\(l) a refund is type REFUND: \(refund)")
            #expect(refund.string("refundedTransactionId") == a, "\(l) the refund names A: \(refund)")
            #expect(refund.int("transactionAmount") == 2000, "\(l) refund amount: \(refund)")
            let refunded = expectTransaction(await till.details(a), 200, "REFUNDED", "\(l) A after its refund")
            #expect(parseTime(refunded["refundedDate"]) != nil, "\(l) REFUNDED A has no refundedDate: \(refunded)")
            #expect(refunded.string("refundedMaskedPan") == "476173******0011", "\(l) REFUNDED A refundedMaskedPan: \(refunded)")
            #expect(refunded.bool("refundable") == false, "\(l) a refunded sale is not refundable again: \(refunded)")

            await till.refused(409, "already_refunded", "refund A a second time") { await till.refund(a, amount: 1000) }
            // A refund is no sale: it cannot be refunded or reversed.
            let refundID = try #require(refund.transactionId)
            // The contract names no code for "not a CLEARED sale"; SandboxCore's PaymentRules calls it transaction_not_refundable.
            await till.refused(409, oneOf: notRefundable, "refund the refund") { await till.refund(refundID, amount: 100) }
            expectReply(await till.reversal(refundID), 409, "transaction_not_cancellable", "\(l) reverse the refund")

            // 30 minutes on the host clock end the reversal window: refundable in two steps (NEW, then the card).
            let c = try await till.cleared(amount: 3000, "sale C 30.00")
            await till.refused(409, "transaction_still_cancellable", "refund C right away") { await till.refund(c, amount: 3000) }
            try await till.advance(30 * 60 + 1, "30 min after sale C", relogin: true)
            let late = expectTransaction(await till.details(c), 200, "CLEARED", "\(l) C 30 min later")
            #expect(late.bool("cancellable") == false, "\(l) C must not be cancellable after 30 min: \(late)")
            let waiting = expectTransaction(await till.refund(c, amount: 3000), 201, "NEW", "\(l) refund C without card")
            #expect(waiting.string("transactionType") == "REFUND", "\(l) the NEW refund is type REFUND: \(waiting)")
            let waitingID = try #require(waiting.transactionId)
            expectReply(await till.sale(amount: 1000), 409, "terminal_busy", "\(l) a sale while the refund waits for its card")
            let card = try await till.tap("visa", amount: 3000)
            expectTransaction(await till.card(waitingID, payload: card), 200, "CLEARED", "\(l) card step of the refund of C")
            expectTransaction(await till.details(c), 200, "REFUNDED", "\(l) C after the two-step refund")
        }
    }

    @Test("refund_not_allowed on a refunds-off terminal; a reversals-off terminal refunds at once")
    func refundSwitches() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let off = try await Till.open(host, try host.refundsOff())
            let s1 = try await off.cleared(amount: 1000, "sale 1")
            _ = try await off.cleared(amount: 2000, "sale 2")
            await off.refused(403, "refund_not_allowed", "refund on a refunds-off terminal") { await off.refund(s1, amount: 1000) }
            let detail = expectTransaction(await off.details(s1), 200, "CLEARED", "\(off.label) sale 1")
            #expect(detail.bool("refundable") == false, "\(off.label) nothing is refundable with refunds off: \(detail)")

            let noReversal = try await Till.open(host, try host.reversalsOff())
            let sale = try await noReversal.cleared(amount: 1500, "sale")
            let view = expectTransaction(await noReversal.details(sale), 200, "CLEARED", "\(noReversal.label) sale")
            #expect(view.bool("cancellable") == false, "\(noReversal.label) reversals off: never cancellable: \(view)")
            #expect(view.bool("isReversalAvailable") == false, "\(noReversal.label) isReversalAvailable: \(view)")
            let payload = try await noReversal.tap("visa", amount: 1500)
            expectTransaction(
                await noReversal.refund(sale, amount: 1500, payload: payload), 201, "CLEARED",
                "\(noReversal.label) refund right after the sale on a reversals-off terminal")
            expectTransaction(await noReversal.details(sale), 200, "REFUNDED", "\(noReversal.label) sale after its refund")
        }
    }

    @Test("reversal: only the latest CLEARED sale within 30 min → CANCELLED or USER_CANCELLED; otherwise transaction_not_cancellable")
    func reversals() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label

            let a = try await till.cleared(amount: 1000, "sale A")
            let cancelled = expectTransaction(await till.reversal(a), 200, "CANCELLED", "\(l) reverse A")
            #expect(cancelled.transactionId == a, "\(l) the reversal answers A: \(cancelled)")
            #expect(cancelled.bool("cancellable") == false, "\(l) a cancelled sale is not cancellable: \(cancelled)")
            expectTransaction(await till.details(a), 200, "CANCELLED", "\(l) A after its reversal")
            expectReply(await till.reversal(a), 409, "transaction_not_cancellable", "\(l) reverse A again")
            await till.refused(409, oneOf: notRefundable, "refund the cancelled A") { await till.refund(a, amount: 1000) }

            let b = try await till.cleared(amount: 2000, "sale B")
            let c = try await till.cleared(amount: 3000, "sale C")
            expectReply(await till.reversal(b), 409, "transaction_not_cancellable", "\(l) reverse B, which is not the latest sale")
            expectTransaction(await till.reversal(c, byUser: true), 200, "USER_CANCELLED", "\(l) reverse C (isCancelledByUser)")

            let declined = expectTransaction(try await till.pay("visa", amount: 4251), 201, "DECLINED", "\(l) declined sale D")
            await till.refused(409, oneOf: notRefundable, "refund the declined D") {
                await till.refund(declined.transactionId ?? "", amount: 1000)
            }
            expectReply(
                await till.reversal(try #require(declined.transactionId)), 409, "transaction_not_cancellable",
                "\(l) reverse the declined D")

            // The 30-minute window, on the host clock.
            let e = try await till.cleared(amount: 4000, "sale E")
            try await till.advance(30 * 60 - 5, "29 min 55 s after sale E", relogin: true)
            let stillOpen = expectTransaction(await till.details(e), 200, "CLEARED", "\(l) E 29 min 55 s later")
            #expect(stillOpen.bool("cancellable") == true, "\(l) E must still be cancellable: \(stillOpen)")
            expectTransaction(await till.reversal(e), 200, "CANCELLED", "\(l) reverse E at 29 min 55 s")

            let f = try await till.cleared(amount: 5000, "sale F")
            try await till.advance(30 * 60 + 1, "30 min 1 s after sale F", relogin: true)
            expectReply(await till.reversal(f), 409, "transaction_not_cancellable", "\(l) reverse F after 30 min")
            expectTransaction(await till.details(f), 200, "CLEARED", "\(l) F stays CLEARED")
        }
    }

    @Test("reversal window: a declined sale or a cancelled read after a cleared sale leaves it reversible; only a later cleared sale ends it")
    func reversalWindowEndsOnlyWithALaterClearedSale() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label

            let a = try await till.cleared(amount: 3000, "sale A")
            // Outcomes that are not a cleared sale: an issuer's decline (the card's own flag, whatever
            // the amount), a card read the customer cancelled, and a sale that waited for a card in vain.
            expectTransaction(try await till.pay("visa-decline", amount: 1250), 201, "DECLINED", "\(l) declined sale after A")
            expectTransaction(await till.sale(amount: 1250, outcome: "cancelled"), 201, "USER_CANCELLED", "\(l) cancelled read after A")
            let waiting = try #require(
                expectTransaction(await till.sale(amount: 1250), 201, "NEW", "\(l) a sale waiting for a card").transactionId)
            try await till.advance(121, "the card never came", relogin: true)
            expectTransaction(await till.details(waiting), 200, "TIMEOUT", "\(l) the waiting sale timed out")
            let stillOpen = expectTransaction(await till.details(a), 200, "CLEARED", "\(l) A after a decline, a cancel and a timeout")
            #expect(stillOpen.bool("cancellable") == true, "\(l) A is still the latest cleared sale: \(stillOpen)")
            #expect(stillOpen.bool("refundable") == false, "\(l) a cancellable sale is not refundable: \(stillOpen)")
            expectTransaction(await till.reversal(a), 200, "CANCELLED", "\(l) reverse A after the declined sale")

            // A later sale that cleared ends the window, and reversing that sale does not reopen it.
            let b = try await till.cleared(amount: 2000, "sale B")
            let c = try await till.cleared(amount: 2500, "sale C")
            expectTransaction(await till.reversal(c), 200, "CANCELLED", "\(l) reverse C")
            let closed = expectTransaction(await till.details(b), 200, "CLEARED", "\(l) B after C cleared and was reversed")
            #expect(closed.bool("cancellable") == false, "\(l) B stopped being cancellable when C cleared: \(closed)")
            expectReply(await till.reversal(b), 409, "transaction_not_cancellable", "\(l) reverse B after C cleared")
        }
    }

    @Test("reversal_not_allowed on a reversals-off terminal")
    func reversalSwitch() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.reversalsOff())
            let sale = try await till.cleared(amount: 1000, "sale")
            expectReply(await till.reversal(sale), 403, "reversal_not_allowed", "\(till.label) reverse on a reversals-off terminal")
            expectReply(
                await till.reversal(sale, byUser: true), 403, "reversal_not_allowed",
                "\(till.label) reverse (isCancelledByUser) on a reversals-off terminal")
            expectTransaction(await till.details(sale), 200, "CLEARED", "\(till.label) the sale stays CLEARED")
        }
    }
}
