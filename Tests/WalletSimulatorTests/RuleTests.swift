import Foundation
import Testing
import HostTestSupport
import SandboxTestSupport

/// Standing rules and the amounts of `wallet.json`: the wallet acts on its own, on its clock.
@Suite struct RuleTests {
    /// 43.xx EUR: what `sandbox-data/wallet.json` says each amount does.
    @Test(arguments: [
        (4305, "declined", "declined_by_provider"),
        (4311, "declined", "declined_by_customer"),
        (4351, "declined", "insufficient_funds"),
        (4361, "declined", "limit_exceeded"),
        (4396, "declined", "system_error"),
        (4330, "expired", nil as String?),
        (4340, "scanned", nil),
    ])
    func anAmountPicksTheOutcome(_ amount: Int, status: String, reason: String?) async throws {
        let host = try RecordingWalletHost()
        let wallet = try InProcessWallet(hosts: ["EU": host.url])
        defer { wallet.stop(); host.stop() }
        let made = wallet.makeOrder("tx-1", amount: amount)
        #expect(made.string("status") == "pending", "the order is made first: \(made)")
        wallet.advance(0)
        let order = wallet.order("tx-1")
        #expect(order.string("status") == status, "\(amount): \(order)")
        #expect(order.string("reason") == reason, "\(amount): \(order)")
        let told = ["declined": "order.declined", "expired": "order.expired", "scanned": "order.scanned"][status]!
        #expect(await eventually { host.types(of: "tx-1") == [told] }, "\(amount): \(host.types(of: "tx-1"))")
        wallet.advance(100)
        #expect(wallet.order("tx-1").string("status") == status, "nothing more happens before the deadline")
    }

    @Test func fortyThreeTwentyIsApprovedTwoSecondsAfterTheOrderOnTheWalletsClock() async throws {
        let host = try RecordingWalletHost()
        let wallet = try InProcessWallet(hosts: ["EU": host.url])
        defer { wallet.stop(); host.stop() }
        wallet.makeOrder("tx-1", amount: 4320)
        wallet.advance(1.5)
        #expect(wallet.order("tx-1").string("status") == "pending")
        wallet.advance(0.5)
        #expect(await eventually { wallet.order("tx-1").string("status") == "paid" }, "\(wallet.order("tx-1"))")
        #expect(host.types(of: "tx-1") == ["order.paid"])
    }

    /// As for the card amounts: the hundredths in the currency's minor units (43.050 dinars),
    /// and for a currency without hundredths 4300 + the digits (4305 yen).
    @Test func otherAmountsAreLeftToTheCustomerAndEachCurrencyUsesItsExponent() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        wallet.makeOrder("tx-eur", amount: 4306)
        wallet.makeOrder("tx-eur-big", amount: 14305)
        wallet.makeOrder("tx-jpy", amount: 4305) { $0["currency"] = "JPY" }
        wallet.makeOrder("tx-kwd", amount: 43_050) { $0["currency"] = "KWD" }
        wallet.makeOrder("tx-kwd-other", amount: 43_051) { $0["currency"] = "KWD" }
        wallet.advance(0)
        #expect(wallet.order("tx-eur").string("status") == "pending")
        #expect(wallet.order("tx-eur-big").string("status") == "pending")
        #expect(wallet.order("tx-jpy").string("reason") == "declined_by_provider")
        #expect(wallet.order("tx-kwd").string("reason") == "declined_by_provider")
        #expect(wallet.order("tx-kwd-other").string("status") == "pending")
    }

    @Test func aCountedRuleDeclinesTheNextOrderOnlyAndThenIsGone() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let rule = wallet.call("POST", "/api/rules", body: ["action": "decline", "reason": "insufficient_funds", "count": 1])
        #expect(rule.status == 201 && rule.int("count") == 1 && rule.string("appliesTo") == "orders", "\(rule)")
        wallet.makeOrder("tx-1")
        wallet.makeOrder("tx-2")
        wallet.advance(0)
        #expect(wallet.order("tx-1").string("reason") == "insufficient_funds")
        #expect(wallet.order("tx-2").string("status") == "pending")
        #expect(wallet.call("GET", "/api/rules").objects("rules").isEmpty)
    }

    @Test func aRuleForOneTerminalApprovesItsOrdersAfterItsDelayUntilDeleted() async throws {
        let host = try RecordingWalletHost()
        let wallet = try InProcessWallet(hosts: ["EU": host.url])
        defer { wallet.stop(); host.stop() }
        let rule = wallet.call("POST", "/api/rules", body: ["terminalId": "EU-T0101", "action": "approve", "afterSeconds": 5])
        let ruleId = try #require(rule.string("ruleId"), "\(rule)")
        wallet.makeOrder("tx-1")
        wallet.makeOrder("tx-other", terminal: "EU-T0102")
        wallet.advance(4)
        #expect(wallet.order("tx-1").string("status") == "pending")
        wallet.advance(1)
        #expect(await eventually { wallet.order("tx-1").string("status") == "paid" })
        #expect(wallet.order("tx-other").string("status") == "pending", "another terminal's order is left alone")
        wallet.makeOrder("tx-2")
        wallet.advance(5)
        #expect(await eventually { wallet.order("tx-2").string("status") == "paid" }, "the rule stays until deleted")
        #expect(wallet.call("DELETE", "/api/rules/\(ruleId)").status == 204)
        #expect(wallet.call("DELETE", "/api/rules/\(ruleId)").errorCode == "rule_not_found")
        wallet.makeOrder("tx-3")
        wallet.advance(5)
        #expect(wallet.order("tx-3").string("status") == "pending")
    }

    @Test func aStandingRuleWinsOverTheAmountAndTheOldestRuleFirst() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        wallet.call("POST", "/api/rules", body: ["region": "EU", "action": "expire", "count": 1])
        wallet.call("POST", "/api/rules", body: ["action": "scanOnly"])
        wallet.makeOrder("tx-1", amount: 4351)
        wallet.makeOrder("tx-2", amount: 4351)
        wallet.advance(0)
        #expect(wallet.order("tx-1").string("status") == "expired")
        #expect(wallet.order("tx-2").string("status") == "scanned")
        #expect(wallet.call("DELETE", "/api/rules").status == 204)
        #expect(wallet.call("GET", "/api/rules").objects("rules").isEmpty)
    }

    @Test func whatARulePlannedIsDoneAfterARestartToo() async throws {
        let host = try RecordingWalletHost()
        let directory = TemporaryDirectory()
        var wallet: InProcessWallet? = try InProcessWallet(directory: directory, hosts: ["EU": host.url])
        wallet!.call("POST", "/api/rules", body: ["action": "approve", "afterSeconds": 60, "count": 1])
        wallet!.makeOrder("tx-1")
        wallet!.stop()
        wallet = nil
        let restarted = try InProcessWallet(directory: directory, hosts: ["EU": host.url])
        defer { restarted.stop(); host.stop() }
        #expect(restarted.order("tx-1").string("status") == "pending")
        restarted.advance(60)
        #expect(await eventually { restarted.order("tx-1").string("status") == "paid" })
    }

    @Test func aRuleLaterThanTheDeadlineLetsTheOrderExpire() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        wallet.call("POST", "/api/rules", body: ["action": "approve", "afterSeconds": 120])
        wallet.makeOrder("tx-1", expiresIn: 60)
        wallet.advance(200)
        #expect(wallet.order("tx-1").string("status") == "expired")
    }

    @Test(arguments: [
        (#"{"action":"dance"}"#, "action"),
        (#"{"action":"approve","reason":"insufficient_funds"}"#, "reason"),
        (#"{"action":"decline","reason":"bored"}"#, "reason"),
        (#"{"action":"approve","afterSeconds":-1}"#, "afterSeconds"),
        (#"{"action":"approve","afterSeconds":86401}"#, "afterSeconds"),
        (#"{"action":"approve","count":0}"#, "count"),
        (#"{"action":"approve","terminalId":"a b"}"#, "terminalId"),
        (#"{"action":"approve","appliesTo":"cards"}"#, "appliesTo"),
        (#"{"action":"expire","appliesTo":"refunds"}"#, "action"),
        (#"{"afterSeconds":1}"#, "action"),
    ])
    func aBadRuleIsRefusedByField(_ body: String, field: String) throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let reply = wallet.call("POST", "/api/rules", raw: body)
        #expect(reply.status == 400 && reply.errorField == field, "\(body): \(reply)")
        #expect(wallet.call("GET", "/api/rules").objects("rules").isEmpty)
    }
}
