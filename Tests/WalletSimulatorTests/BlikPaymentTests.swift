import Foundation
import HostTestSupport
import Testing
import SandboxTestSupport

/// A BLIK payment at the wallet's bank (docs/blik.md): the confirmation request, Approve with the
/// bank's balance and limit checks, Decline, no answer, the code table for CI, refunds, restarts.
@Suite struct BlikPaymentTests {
    /// A wallet whose mBank host acknowledges everything, and a payment `tx-1` made with a fresh code of `customer`.
    private func payment(customer: String = "jan", amount: Int = 1250) throws -> (InProcessWallet, RecordingWalletHost) {
        let host = try RecordingWalletHost()
        let wallet = try InProcessWallet(hosts: ["MBANK": host.url])
        let code = try #require(wallet.blikCode(customer: customer).string("code"))
        let made = wallet.blikPay("tx-1", code: code, amount: amount)
        try #require(made.status == 201, "\(made)")
        return (wallet, host)
    }

    @Test func approvingTakesTheMoneyAndTellsTheHostPaidWithNoScan() throws {
        let (wallet, host) = try payment()
        defer { wallet.stop(); host.stop() }
        let request = try #require(wallet.confirmationRequests("jan").first)
        #expect(request["merchantName"] as? String == "Kawiarnia Wisła" && request["amount"] as? Int == 1250, "\(request)")
        let paid = wallet.press("pay", "tx-1")
        #expect(paid.string("status") == "paid", "\(paid)")
        #expect(host.types(of: "tx-1") == ["order.paid"], "BLIK has no QR to scan")
        #expect(wallet.balance("jan") == 500_000 - 1250)
        #expect(wallet.confirmationRequests("jan").isEmpty)
        #expect(wallet.press("scan", "tx-1").status == 409)
    }

    @Test(arguments: [
        ("anna", 6000, "insufficient_funds"), ("piotr", 60000, "limit_exceeded"), ("jan", 4451, "insufficient_funds"),
        ("jan", 4461, "limit_exceeded"), ("jan", 4411, "declined_by_customer"), ("jan", 4405, "declined_by_provider"),
        ("jan", 4496, "system_error"),
    ])
    func theBankDeclinesOnApproveAndTakesNothing(customer: String, amount: Int, reason: String) async throws {
        let (wallet, host) = try payment(customer: customer, amount: amount)
        defer { wallet.stop(); host.stop() }
        let before = wallet.balance(customer)
        let reply = wallet.press("pay", "tx-1")
        #expect(reply.string("status") == "declined" && reply.string("reason") == reason, "\(reply)")
        #expect(wallet.balance(customer) == before)
        #expect(await eventually { host.types(of: "tx-1") == ["order.declined"] })
        #expect(host.notifications.first?.reason == reason)
    }

    @Test func aBalanceJustEnoughIsTakenToZero() throws {
        let (wallet, host) = try payment(customer: "anna", amount: 5000)
        defer { wallet.stop(); host.stop() }
        #expect(wallet.press("pay", "tx-1").string("status") == "paid")
        #expect(wallet.balance("anna") == 0)
    }

    @Test(arguments: ["declined_by_customer", "insufficient_funds", "system_error"])
    func decliningSendsTheReasonPicked(reason: String) async throws {
        let (wallet, host) = try payment()
        defer { wallet.stop(); host.stop() }
        let reply = wallet.press("decline", "tx-1", body: ["reason": reason])
        #expect(reply.string("status") == "declined" && reply.string("reason") == reason, "\(reply)")
        #expect(await eventually { host.notifications.first { $0.orderId == "tx-1" }?.reason == reason })
        #expect(wallet.balance("jan") == 500_000)
        let bad = wallet.press("decline", "tx-1", body: ["reason": "bored"])
        #expect(bad.status == 400 || bad.status == 409, "\(bad)")
    }

    @Test func noAnswerExpiresTheRequestAfterConfirmationSecondsOnTheClock() async throws {
        let (wallet, host) = try payment()
        defer { wallet.stop(); host.stop() }
        wallet.advance(59)
        #expect(wallet.order("tx-1").string("status") == "pending")
        #expect(wallet.confirmationRequests("jan").count == 1)
        wallet.advance(1)
        #expect(wallet.order("tx-1").string("status") == "expired")
        #expect(wallet.confirmationRequests("jan").isEmpty)
        #expect(await eventually { host.types(of: "tx-1") == ["order.expired"] })
        #expect(wallet.press("pay", "tx-1").status == 409, "too late to approve")
    }

    @Test func aHostRefusingThePaymentGivesTheMoneyBack() throws {
        let (wallet, host) = try payment()
        defer { wallet.stop(); host.stop() }
        host.answer(with: .refuse("The payment was cancelled at the terminal."))
        #expect(wallet.press("pay", "tx-1").string("status") == "refused")
        #expect(wallet.balance("jan") == 500_000)
    }

    @Test(arguments: [
        ("777042", nil, 2.0, ["order.paid"], nil), ("777123456", "1234", 2.0, ["order.paid"], nil),
        ("500051", nil, 2.0, ["order.declined"], "insufficient_funds"), ("500061", nil, 2.0, ["order.declined"], "limit_exceeded"),
        ("500011", nil, 2.0, ["order.declined"], "declined_by_customer"), ("500005", nil, 2.0, ["order.declined"], "declined_by_provider"),
        ("500096", nil, 2.0, ["order.declined"], "system_error"),
    ] as [(String, String?, Double, [String], String?)])
    func theCodeTableDecidesWithNoPage(code: String, verification: String?, after: Double, types: [String], reason: String?) async throws {
        let host = try RecordingWalletHost()
        let wallet = try InProcessWallet(hosts: ["MBANK": host.url])
        defer { wallet.stop(); host.stop() }
        #expect(wallet.blikPay("tx-1", code: code, verification: verification).status == 201)
        #expect(wallet.blikPay("tx-2", code: code, verification: verification).status == 201, "a table code is not spent")
        if after > 0 {
            wallet.advance(after - 0.5)
            #expect(wallet.order("tx-1").string("status") == "pending")
        }
        wallet.advance(after)
        #expect(await eventually { host.types(of: "tx-1") == types }, "\(host.types(of: "tx-1"))")
        #expect(host.notifications.first { $0.orderId == "tx-1" }?.reason == reason)
    }

    @Test func theTableRefusesItsErrorCodesAndWaitsForTheHostOnNoAnswer() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        #expect(wallet.blikPay(code: "400410").errorCode == "blik_code_expired")
        #expect(wallet.blikPay(code: "400409").errorCode == "blik_code_used")
        #expect(wallet.blikPay(code: "777123456", verification: "9999").errorCode == "blik_verification_failed")
        #expect(wallet.blikPay(code: "777999999", verification: "1234").errorCode == "blik_code_unknown")
        #expect(wallet.blikPay("tx-1", code: "500000", expiresIn: 120).status == 201)
        // 10 s short of it, not 1: the wallet's clock also runs with real time, and a loaded machine is slow.
        wallet.advance(110)
        #expect(wallet.order("tx-1").string("status") == "pending", "no answer lasts to blikTimeout, past the 60 s")
        wallet.advance(10)
        #expect(wallet.order("tx-1").string("status") == "expired")
    }

    @Test func refundsCreditTheCustomersBalance() async throws {
        let (wallet, host) = try payment(amount: 10_000)
        defer { wallet.stop(); host.stop() }
        #expect(wallet.press("pay", "tx-1").string("status") == "paid")
        #expect(wallet.balance("jan") == 490_000)
        let refund = wallet.provider("POST", "/provider/v1/refunds", ["refundId": "rf-1", "orderId": "tx-1", "amount": 2500], region: "MBANK")
        #expect(refund.status == 202, "\(refund)")
        wallet.advance(0)
        #expect(await eventually { wallet.balance("jan") == 492_500 })
        wallet.provider("POST", "/provider/v1/refunds", ["refundId": "rf-2", "orderId": "tx-1", "amount": 7500], region: "MBANK")
        wallet.advance(0)
        #expect(await eventually { wallet.balance("jan") == 500_000 }, "a full refund puts it all back")
        #expect(await eventually { host.types(of: "tx-1") == ["order.paid", "refund.succeeded", "refund.succeeded"] })
    }

    @Test func aRestartKeepsBalancesAndPendingRequests() throws {
        let directory = TemporaryDirectory()
        var wallet: InProcessWallet? = try InProcessWallet(directory: directory)
        let first = try #require(wallet!.blikCode().string("code"))
        let second = try #require(wallet!.blikCode().string("code"))
        #expect(wallet!.blikPay("tx-1", code: first, amount: 3000).status == 201)
        #expect(wallet!.press("pay", "tx-1").status == 200)
        #expect(wallet!.blikPay("tx-2", code: second, amount: 700).status == 201)
        let unused = try #require(wallet!.blikCode().string("code"))
        wallet!.stop()
        wallet = nil
        let restarted = try InProcessWallet(directory: directory)
        defer { restarted.stop() }
        #expect(restarted.balance("jan") == 500_000 - 3000)
        #expect(restarted.confirmationRequests("jan").map { $0["orderId"] as? String } == ["tx-2"])
        #expect(restarted.blikPay("tx-3", code: first).errorCode == "blik_code_used")
        #expect(restarted.blikPay("tx-4", code: unused).status == 201, "an unused code lives on")
        #expect(restarted.press("pay", "tx-2").status == 200)
        #expect(restarted.balance("jan") == 500_000 - 3700)
        restarted.call("POST", "/_sandbox/reset")
        #expect(restarted.balance("jan") == 500_000, "a reset puts the fixtures' balances back")
    }

    @Test func theCustomersListShowsEveryFixtureWithItsBalance() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let customers = wallet.call("GET", "/api/blik/customers").objects("customers")
        #expect(customers.map { $0["customerId"] as? String } == ["jan", "anna", "piotr"])
        #expect(customers.first?["balance"] as? Int == 500_000 && customers.first?["perPaymentLimit"] as? Int == 200_000)
        #expect(customers.first?["currency"] as? String == "PLN")
    }
}
