import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

/// Tips, limits, one-at-a-time and Idempotency-Key (docs/card-payments.md "Rules").
@Suite("Card payments: tips, limits, busy terminal, idempotency")
struct RulesTests {
    @Test("tips: within the terminal's caps clears; tip_over_limit over the amount or percentage cap; tips_not_allowed where tips are off")
    func tips() async throws {
        try await withSandbox(regions: ["EU", "CAWL"]) { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label
            let info = expectReply(await till.terminalInfo(), 200, nil, "\(l) terminal info")
            #expect(info.bool("tipEnabled") == true, "\(l) tips must be on: \(info)")
            let maxTip = try #require(info.int("maxTipAmount"), "\(l) no maxTipAmount: \(info)")
            let maxPercent = try #require(info.double("maxTipPercentage"), "\(l) no maxTipPercentage: \(info)")

            // A tip exactly at the percentage cap of a 100.00 base.
            let capTip = Int(Double(10000) * maxPercent / 100)
            let tipped = expectTransaction(
                try await till.pay("visa", amount: 10000 + capTip, tip: capTip), 201, "CLEARED", responseCode: "00",
                "\(l) 100.00 + \(capTip) tip (\(maxPercent) %)")
            #expect(tipped.int("tipAmount") == capTip, "\(l) tipAmount: \(tipped)")
            #expect(tipped.int("transactionAmount") == 10000 + capTip, "\(l) transactionAmount includes the tip: \(tipped)")

            await till.refused(400, "tip_over_limit", "tip one unit over \(maxPercent) % of the base") {
                await till.sale(amount: 10000 + capTip + 1, tip: capTip + 1)
            }
            // A base large enough that the percentage allows more than maxTipAmount.
            let bigBase = (maxTip + 1) * 100
            await till.refused(400, "tip_over_limit", "tip of \(maxTip + 1) over maxTipAmount \(maxTip)") {
                await till.sale(amount: bigBase + maxTip + 1, tip: maxTip + 1)
            }
            await till.refused(400, "tip_over_limit", "tip equal to the requested amount") {
                await till.sale(amount: 100, tip: 100)
            }
            await till.refused(400, "invalid_amount", "negative tip") { await till.sale(amount: 1000, tip: -5) }

            let kiosk = try await Till.open(host, try host.terminal("with tips off") { !$0.tips.enabled && !$0.autoLogin })
            await kiosk.refused(400, "tips_not_allowed", "tip on a terminal with tips off") {
                await kiosk.sale(amount: 1100, tip: 100)
            }

            let cawl = try sandbox.host("CAWL")
            #expect(!cawl.facts.tips, "CAWL must be a region without tips in environments.json")
            let cawlTill = try await Till.open(cawl, try cawl.terminal("with auto-login") { $0.autoLogin })
            await cawlTill.refused(400, "tips_not_allowed", "tip on a region without tips (CAWL)") {
                await cawlTill.sale(amount: 1100, tip: 100)
            }
            expectTransaction(try await cawlTill.pay("visa", amount: 1100), 201, "CLEARED", "\(cawlTill.label) the same sale without tip")
        }
    }

    @Test("limits: amount_over_limit above the terminal's limitAmount, tip included; the limit itself passes")
    func limits() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let limit = till.terminal.limitAmount
            await till.refused(400, "amount_over_limit", "limit + 1") { await till.sale(amount: limit + 1) }
            await till.refused(400, "amount_over_limit", "limit + 1 of which a 50.00 tip (base under the limit)") {
                await till.sale(amount: limit + 1, tip: 5000)
            }
            expectTransaction(try await till.pay("visa", amount: limit), 201, "CLEARED", "\(till.label) exactly the limit \(limit)")

            let low = try await Till.open(host, try host.terminal("with a low limit") { $0.limitAmount <= 10000 })
            let lowLimit = low.terminal.limitAmount
            await low.refused(400, "amount_over_limit", "low limit + 1") { await low.sale(amount: lowLimit + 1) }
            expectTransaction(try await low.pay("visa", amount: lowLimit), 201, "CLEARED", "\(low.label) exactly the low limit \(lowLimit)")
        }
    }

    @Test("terminal_busy to a sale and a refund while NEW; other terminals are not affected")
    func busy() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let other = try await Till.open(host, try host.second(besides: till.id))
            let l = till.label

            let a = try await till.cleared(amount: 1000, "sale A")
            _ = try await till.cleared(amount: 2000, "sale B")
            let waiting = expectTransaction(await till.sale(amount: 3000), 201, "NEW", "\(l) sale C without card")
            let payload = try await till.tap("visa", amount: 1000)
            await till.refused(409, "terminal_busy", "a sale with a card while C is NEW") {
                await till.sale(amount: 1000, payload: payload)
            }
            await till.refused(409, "terminal_busy", "a sale without card while C is NEW") { await till.sale(amount: 1000) }
            let refundCard = try await till.tap("visa", amount: 1000)
            await till.refused(409, "terminal_busy", "a refund of A while C is NEW") {
                await till.refund(a, amount: 1000, payload: refundCard)
            }
            expectTransaction(try await other.pay("visa", amount: 1000), 201, "CLEARED", "\(other.label) sells while \(till.id) is busy")

            let card = try await till.tap("visa", amount: 3000)
            expectTransaction(await till.card(try #require(waiting.transactionId), payload: card), 200, "CLEARED", "\(l) card for C")
            // The payloads refused as busy were not spent.
            expectTransaction(await till.sale(amount: 1000, payload: payload), 201, "CLEARED", "\(l) the payload refused as busy pays now")
        }
    }

    @Test("Idempotency-Key: same key and body replays (Idempotent-Replayed: true, no new transaction); other body → idempotency_key_reused; failures can be retried")
    func idempotency() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label

            let payload = try await till.tap("visa", amount: 1250)
            let first = expectTransaction(
                await till.sale(amount: 1250, payload: payload, key: "order-1250"), 201, "CLEARED", "\(l) sale with key order-1250")
            #expect(first.header("Idempotent-Replayed") != "true", "\(l) the first answer is no replay: \(first.headers)")
            let id = try #require(first.transactionId)
            let count = await till.count("after the first sale")
            let again = expectTransaction(
                await till.sale(amount: 1250, payload: payload, key: "order-1250"), 201, "CLEARED", "\(l) same key, same body")
            #expect(again.transactionId == id, "\(l) the replay must answer the same transaction \(id): \(again)")
            #expect(again.header("Idempotent-Replayed") == "true", "\(l) the replay lacks Idempotent-Replayed: true: \(again.headers)")
            #expect(await till.count("after the replay") == count, "\(l) the replay charged again")
            let history = expectReply(await till.history(), 200, nil, "\(l) history after the replay")
            #expect(history.int("total") == count, "\(l) history total after the replay: \(history)")

            await till.refused(409, "idempotency_key_reused", "same key, another amount") {
                await till.sale(amount: 1300, payload: payload, key: "order-1250")
            }
            await till.refused(409, "idempotency_key_reused", "same key, a NEW sale instead") {
                await till.sale(amount: 1250, key: "order-1250")
            }
            await till.refused(400, "invalid_request", "an Idempotency-Key of 65 characters") {
                await till.sale(amount: 1250, key: String(repeating: "k", count: 65))
            }

            // A request refused by validation does not burn its key.
            await till.refused(400, "invalid_amount", "amount 0 with key retry-1") { await till.sale(amount: 0, key: "retry-1") }
            let fixed = try await till.tap("visa", amount: 1400)
            expectTransaction(
                await till.sale(amount: 1400, payload: fixed, key: "retry-1"), 201, "CLEARED", "\(l) corrected request with key retry-1")

            // A request refused as busy is retried with the same key and body once the terminal is free.
            let waiting = expectTransaction(await till.sale(amount: 1500), 201, "NEW", "\(l) sale without card")
            let busyCard = try await till.tap("visa", amount: 1600)
            await till.refused(409, "terminal_busy", "sale with key retry-2 while busy") {
                await till.sale(amount: 1600, payload: busyCard, key: "retry-2")
            }
            expectTransaction(
                await till.card(try #require(waiting.transactionId), outcome: "cancelled"), 200, "USER_CANCELLED",
                "\(l) the waiting sale is cancelled")
            let retried = expectTransaction(
                await till.sale(amount: 1600, payload: busyCard, key: "retry-2"), 201, "CLEARED", "\(l) retry with key retry-2")
            #expect(retried.header("Idempotent-Replayed") != "true", "\(l) the retry ran, it is no replay: \(retried.headers)")

            // Reversal and refund keys.
            let reversed = expectTransaction(
                await till.reversal(try #require(retried.transactionId), key: "rev-1"), 200, "CANCELLED", "\(l) reversal with key rev-1")
            let reversedAgain = expectTransaction(
                await till.reversal(try #require(retried.transactionId), key: "rev-1"), 200, "CANCELLED", "\(l) reversal replay")
            #expect(reversedAgain.header("Idempotent-Replayed") == "true", "\(l) reversal replay header: \(reversedAgain.headers)")
            #expect(reversedAgain.transactionId == reversed.transactionId, "\(l) reversal replay id")
            expectReply(
                await till.reversal(try #require(retried.transactionId), byUser: true, key: "rev-1"), 409, "idempotency_key_reused",
                "\(l) reversal key with another body")

            _ = try await till.cleared(amount: 1700, "a later sale so the first is refundable")
            let refundCard = try await till.tap("visa", amount: 500)
            let refund = expectTransaction(
                await till.refund(id, amount: 500, payload: refundCard, key: "ref-1"), 201, "CLEARED", "\(l) refund with key ref-1")
            let before = await till.count("after the refund")
            let refundAgain = expectTransaction(
                await till.refund(id, amount: 500, payload: refundCard, key: "ref-1"), 201, "CLEARED", "\(l) refund replay")
            #expect(refundAgain.transactionId == refund.transactionId, "\(l) refund replay id: \(refundAgain)")
            #expect(refundAgain.header("Idempotent-Replayed") == "true", "\(l) refund replay header: \(refundAgain.headers)")
            #expect(await till.count("after the refund replay") == before, "\(l) the refund replay refunded again")
        }
    }
}
