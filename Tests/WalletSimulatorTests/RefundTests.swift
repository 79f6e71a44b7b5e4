import Foundation
import Testing
import HostTestSupport
import SandboxTestSupport

/// Refunds the hosts ask for: 202 at once, the outcome as a notification.
@Suite struct RefundTests {
    /// A wallet with a paid order `tx-1` of 12.50 EUR, its host acknowledging everything.
    private func paidOrder() throws -> (InProcessWallet, RecordingWalletHost) {
        let host = try RecordingWalletHost()
        let wallet = try InProcessWallet(hosts: ["EU": host.url])
        wallet.makeOrder("tx-1")
        #expect(wallet.press("pay", "tx-1").string("status") == "paid")
        return (wallet, host)
    }

    private func refund(_ wallet: InProcessWallet, _ id: String, amount: Int, order: String = "tx-1") -> HTTPReply {
        wallet.provider("POST", "/provider/v1/refunds", ["refundId": id, "orderId": order, "amount": amount, "reference": "RMA-1"])
    }

    @Test func partialRefundsSucceedUpToTheAmountAndTheHostHearsOfEach() async throws {
        let (wallet, host) = try paidOrder()
        defer { wallet.stop(); host.stop() }
        let first = refund(wallet, "rf-1", amount: 500)
        #expect(first.status == 202 && first.string("status") == "pending", "\(first)")
        #expect(refund(wallet, "rf-1", amount: 500).status == 202, "the same refund again is the same refund")
        #expect(refund(wallet, "rf-2", amount: 750).status == 202)
        let over = refund(wallet, "rf-3", amount: 1)
        #expect(over.status == 409 && over.errorCode == "refund_over_amount", "\(over)")
        wallet.advance(0)
        #expect(await eventually { host.types(of: "tx-1").filter { $0 == "refund.succeeded" }.count == 2 })
        let done = host.notifications.filter { $0.type == .refundSucceeded }
        #expect(Set(done.compactMap(\.refundId)) == ["rf-1", "rf-2"])
        #expect(done.allSatisfy { $0.paymentId?.hasPrefix("wref_") == true })
        let read = wallet.provider("GET", "/provider/v1/refunds/rf-1")
        #expect(read.string("status") == "succeeded", "\(read)")
    }

    @Test func aRefundRuleRefusesTheRefundAndWhatItHeldIsFreeAgain() async throws {
        let (wallet, host) = try paidOrder()
        defer { wallet.stop(); host.stop() }
        wallet.call("POST", "/api/rules", body: ["appliesTo": "refunds", "action": "decline", "reason": "system_error", "count": 1])
        #expect(refund(wallet, "rf-1", amount: 1250).status == 202)
        wallet.advance(0)
        #expect(await eventually { host.types(of: "tx-1").contains("refund.failed") })
        #expect(host.notifications.first { $0.type == .refundFailed }?.reason == "system_error")
        #expect(refund(wallet, "rf-2", amount: 1250).status == 202, "a failed refund holds nothing back")
    }

    @Test func aRefundRuleWithADelayAnswersOnlyOnceTheWalletsClockGetsThere() async throws {
        let (wallet, host) = try paidOrder()
        defer { wallet.stop(); host.stop() }
        wallet.call("POST", "/api/rules", body: ["appliesTo": "refunds", "action": "approve", "afterSeconds": 90])
        #expect(refund(wallet, "rf-1", amount: 100).status == 202)
        wallet.advance(89)
        #expect(wallet.provider("GET", "/provider/v1/refunds/rf-1").string("status") == "pending")
        wallet.advance(1)
        #expect(wallet.provider("GET", "/provider/v1/refunds/rf-1").string("status") == "succeeded")
    }

    @Test func aRefundTheHostNoLongerTakesIsNotPaidOut() async throws {
        let (wallet, host) = try paidOrder()
        defer { wallet.stop(); host.stop() }
        host.answer(with: .refuse("The refund timed out at the host."))
        #expect(refund(wallet, "rf-1", amount: 1250).status == 202)
        wallet.advance(0)
        #expect(await eventually { wallet.provider("GET", "/provider/v1/refunds/rf-1").string("status") == "failed" })
        let read = wallet.provider("GET", "/provider/v1/refunds/rf-1")
        #expect(read.string("reason") == "The refund timed out at the host." && read["providerReference"] is NSNull, "\(read)")
        host.answer(with: .acknowledge)
        #expect(refund(wallet, "rf-2", amount: 1250).status == 202, "what was not paid out can be refunded again")
    }

    @Test func onlyAPaidOrderOfTheRegionCanBeRefundedAndBadRefundsAreRefusedByField() throws {
        let (wallet, host) = try paidOrder()
        defer { wallet.stop(); host.stop() }
        wallet.makeOrder("tx-open")
        let unpaid = refund(wallet, "rf-1", amount: 100, order: "tx-open")
        #expect(unpaid.status == 409 && unpaid.errorCode == "refund_not_allowed", "\(unpaid)")
        #expect(refund(wallet, "rf-2", amount: 100, order: "nope").errorCode == "order_not_found")
        let otherRegion = wallet.provider(
            "POST", "/provider/v1/refunds", ["refundId": "rf-3", "orderId": "tx-1", "amount": 100], region: "ANZ")
        #expect(otherRegion.errorCode == "order_not_found", "\(otherRegion)")
        #expect(refund(wallet, "rf-4", amount: 0).errorField == "amount")
        #expect(refund(wallet, "rf 5", amount: 10).errorField == "refundId")
        #expect(refund(wallet, "rf-6", amount: 10).status == 202)
        let reused = refund(wallet, "rf-6", amount: 11)
        #expect(reused.status == 409 && reused.errorCode == "idempotency_key_reused", "\(reused)")
        let unsigned = wallet.provider("POST", "/provider/v1/refunds", ["refundId": "rf-7", "orderId": "tx-1", "amount": 1], signature: .some(nil))
        #expect(unsigned.status == 401)
    }
}
