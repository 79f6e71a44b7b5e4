import Foundation
import Testing
import HostTestSupport
import SandboxStore
import SandboxTestSupport
@testable import WalletSimulator

/// The customer's buttons through the API, and what the host hears of them.
@Suite struct PaymentTests {
    @Test("the wallet's clock keeps its offset across a restart; realTime: true takes it back, and that is kept too")
    func theClockOutlivesARestart() throws {
        let directory = TemporaryDirectory()
        let first = try InProcessWallet(directory: directory)
        #expect(first.advance(90).status == 200)
        first.stop()
        let restarted = try InProcessWallet(directory: directory)
        #expect(restarted.clock.skew == 90, "the restart moved the wallet's clock back")
        let back = restarted.service.call("POST", "/_sandbox/clock", body: ["realTime": true])
        #expect(back.status == 200 && restarted.clock.skew == 0, "\(back)")
        restarted.stop()
        let again = try InProcessWallet(directory: directory)
        defer { again.stop() }
        #expect(again.clock.skew == 0)
    }

    @Test func payingTellsTheHostThePaymentAndAnswersPaidOnceTheHostAcknowledged() throws {
        let host = try RecordingWalletHost()
        let wallet = try InProcessWallet(hosts: ["EU": host.url])
        defer { wallet.stop(); host.stop() }
        wallet.makeOrder("tx-1")
        let paid = wallet.press("pay", "tx-1")
        #expect(paid.status == 200 && paid.string("status") == "paid", "\(paid)")
        let paymentId = try #require(paid.string("paymentId"))
        #expect(host.types(of: "tx-1") == ["order.paid"], "an order paid without a scan is one message")
        #expect(host.notifications.last?.paymentId == paymentId)
        // Scanned first (the page was opened), the host hears both, in order.
        wallet.makeOrder("tx-2")
        #expect(wallet.press("scan", "tx-2").string("status") == "scanned")
        #expect(wallet.press("pay", "tx-2").string("status") == "paid")
        #expect(host.types(of: "tx-2") == ["order.scanned", "order.paid"])
        #expect(host.unsignedCount == 0)
        #expect(Set(host.notifications.map(\.id)).count == 3, "every notification has its own id")
    }

    @Test func aPaymentTheHostRefusesIsRefusedWithTheHostsMessageAndNothingCharged() throws {
        let host = try RecordingWalletHost()
        host.answer(with: .refuse("The order closed at the host's apmTimeout."))
        let wallet = try InProcessWallet(hosts: ["EU": host.url])
        defer { wallet.stop(); host.stop() }
        wallet.makeOrder("tx-1")
        let reply = wallet.press("pay", "tx-1")
        #expect(reply.string("status") == "refused", "\(reply)")
        #expect(reply.string("reason") == "The order closed at the host's apmTimeout.")
        #expect(reply["paymentId"] is NSNull, "nothing is charged: \(reply)")
    }

    @Test func withTheHostDownPayAnswersPayingAndTheOutboxIsDeliveredAfterARestart() async throws {
        let port = freePort()
        let directory = TemporaryDirectory()
        var wallet: InProcessWallet? = try InProcessWallet(directory: directory, hosts: ["EU": "http://127.0.0.1:\(port)"], payWait: .milliseconds(300))
        wallet!.makeOrder("tx-1")
        let paying = wallet!.press("pay", "tx-1")
        #expect(paying.string("status") == "paying", "\(paying)")
        #expect(try wallet!.wallet.pendingNotifications() == 1)
        wallet!.stop()
        wallet = nil

        let host = try RecordingWalletHost(port: port)
        let restarted = try InProcessWallet(directory: directory, hosts: ["EU": host.url])
        defer { restarted.stop(); host.stop() }
        #expect(await eventually { restarted.order("tx-1").string("status") == "paid" }, "\(restarted.order("tx-1"))")
        #expect(host.types(of: "tx-1") == ["order.paid"])
        #expect(try restarted.wallet.pendingNotifications() == 0)
    }

    @Test func aHostThatFailsIsRetriedUntilItAcknowledges() async throws {
        let host = try RecordingWalletHost()
        host.answer(with: .fail)
        let wallet = try InProcessWallet(hosts: ["EU": host.url], payWait: .milliseconds(200))
        defer { wallet.stop(); host.stop() }
        wallet.makeOrder("tx-1")
        let pressed = Self.realTimeMilliseconds()
        #expect(wallet.press("pay", "tx-1").string("status") == "paying")
        let acknowledging = Self.realTimeMilliseconds()
        host.answer(with: .acknowledge)
        #expect(await eventually { wallet.order("tx-1").string("status") == "paid" })
        #expect(host.types(of: "tx-1") == ["order.paid"], "once")
        // The outbox keeps when the approval was written and when the host's acknowledgement came
        // (bench/apm.sh measures the approval's way to the host with them), not its failed first try.
        let row = try #require(try wallet.wallet.book.store.query("SELECT created_at, answered_at, attempts FROM outbox WHERE order_id = 'tx-1'").first)
        let created: Int64 = try row["created_at"], answered: Int64 = try row["answered_at"], attempts: Int64 = try row["attempts"]
        #expect((pressed...acknowledging).contains(created), "written when Pay was pressed")
        #expect((acknowledging...Self.realTimeMilliseconds()).contains(answered), "answered after the host was told to acknowledge")
        #expect(attempts >= 2)
    }

    private static func realTimeMilliseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    @Test func scanDeclineAndExpireChangeTheOrderAndTellTheHost() async throws {
        let host = try RecordingWalletHost()
        let wallet = try InProcessWallet(hosts: ["EU": host.url])
        defer { wallet.stop(); host.stop() }
        wallet.makeOrder("tx-scan")
        #expect(wallet.press("scan", "tx-scan").string("status") == "scanned")
        #expect(wallet.press("scan", "tx-scan").string("status") == "scanned", "scanning again changes nothing")
        wallet.makeOrder("tx-decline")
        let declined = wallet.press("decline", "tx-decline", body: ["reason": "insufficient_funds"])
        #expect(declined.string("status") == "declined" && declined.string("reason") == "insufficient_funds", "\(declined)")
        wallet.makeOrder("tx-expire")
        #expect(wallet.press("expire", "tx-expire").string("status") == "expired")
        #expect(await eventually { host.notifications.count == 3 })
        #expect(host.types(of: "tx-scan") == ["order.scanned"])
        #expect(host.types(of: "tx-decline") == ["order.declined"])
        #expect(host.notifications.first { $0.orderId == "tx-decline" }?.reason == "insufficient_funds")
        #expect(host.types(of: "tx-expire") == ["order.expired"])
        for action in ["scan", "pay", "expire"] {
            let again = wallet.press(action, "tx-decline")
            #expect(again.status == 409 && again.errorCode == "order_not_payable", "\(action): \(again)")
        }
    }

    @Test func openingThePayPageScansTheOrder() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        wallet.makeOrder("tx-1")
        let page = wallet.call("GET", "/pay/tx-1")
        #expect(page.status == 200 && page.text.contains("<html"), "\(page.status)")
        #expect(wallet.order("tx-1").string("status") == "scanned")
    }

    @Test func theWalletExpiresAnOrderNobodyPaidAtItsDeadlineOnItsClock() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        wallet.makeOrder("tx-1", expiresIn: 60)
        wallet.advance(59)
        #expect(wallet.order("tx-1").string("status") == "pending")
        wallet.advance(1)
        #expect(wallet.order("tx-1").string("status") == "expired")
    }

    @Test func theOrdersListShowsOpenOrdersNewestFirstOrAllOfThem() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        wallet.makeOrder("tx-a")
        wallet.advance(1)
        wallet.makeOrder("tx-b")
        wallet.press("expire", "tx-a")
        #expect(wallet.call("GET", "/api/orders").objects("orders").map { $0["orderId"] as? String } == ["tx-b"])
        #expect(wallet.call("GET", "/api/orders?status=all").objects("orders").map { $0["orderId"] as? String } == ["tx-b", "tx-a"])
        let bad = wallet.call("GET", "/api/orders?status=closed")
        #expect(bad.status == 400 && bad.errorField == "query.status", "\(bad)")
    }

    @Test(arguments: [
        ("GET", "/api/orders/nope", nil as String?, 404, "order_not_found"),
        ("POST", "/api/orders/nope/pay", nil, 404, "order_not_found"),
        ("POST", "/api/orders/nope/scan", nil, 404, "order_not_found"),
        ("POST", "/api/orders/nope/expire", nil, 404, "order_not_found"),
        ("GET", "/api/orders/nope/qr.svg", nil, 404, "order_not_found"),
        ("POST", "/api/orders/tx-1/decline", #"{"reason":"bored"}"#, 400, "invalid_request"),
        ("POST", "/api/orders/tx-1/decline", "{}", 400, "invalid_request"),
        ("POST", "/api/orders/a%20b/pay", nil, 400, "invalid_request"),
        ("DELETE", "/api/rules/nope", nil, 404, "rule_not_found"),
        ("POST", "/_sandbox/clock", #"{"advanceSeconds":-1}"#, 400, "invalid_request"),
        ("POST", "/_sandbox/clock", #"{"set":"yesterday"}"#, 400, "invalid_request"),
    ])
    func badCustomerRequestsGetTheEnvelope(_ method: String, _ path: String, body: String?, status: Int, code: String) throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        wallet.makeOrder("tx-1")
        let reply = wallet.call(method, path, raw: body)
        #expect(reply.status == status && reply.errorCode == code, "\(method) \(path): \(reply)")
        #expect(wallet.order("tx-1").string("status") == "pending")
    }

    @Test func theQRImageOfAnOrderIsAnSVG() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        wallet.makeOrder("tx-1")
        let svg = wallet.call("GET", "/api/orders/tx-1/qr.svg")
        #expect(svg.status == 200 && svg.header("Content-Type") == "image/svg+xml" && svg.text.hasPrefix("<svg"), "\(svg)")
    }
}
