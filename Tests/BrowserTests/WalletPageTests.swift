import Foundation
import HostTestSupport
import Testing
import SandboxTestSupport

/// The wallet's pages as a customer uses them: the pay page a QR opens, and the list of open
/// orders with their QR codes. The orders are made as a host makes them (signed provider API),
/// and a recording host takes the wallet's notifications.
@Suite(.serialized, .blocksThreads) struct WalletPageTests {
    static let available = BrowserPerson.isAvailable

    /// A wallet whose host acknowledges everything, with one order of 12.50 EUR, `tx-1`.
    private func walletWithOrder(amount: Int = 1250) throws -> (InProcessWallet, RecordingWalletHost) {
        let host = try RecordingWalletHost()
        let wallet = try InProcessWallet(hosts: ["EU": host.url])
        let made = wallet.makeOrder("tx-1", amount: amount, expiresIn: 300)
        try #require(made.status == 201, "\(made)")
        return (wallet, host)
    }

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func pressingPayShowsPaidAndTheHostHearsOfIt() throws {
        let (wallet, host) = try walletWithOrder()
        defer { wallet.stop(); host.stop() }
        let seen = try BrowserPerson.run([
            // On a customer's phone.
            .viewport(width: 390, height: 844),
            .goto(wallet.wallet.url + "/pay/tx-1"), .read("#merchant-name"), .read("#amount"), .read("#brand"), .read("#time-left"),
            .click("Pay"), .waitText("#outcome", contains: "Paid"), .read("#outcome"), .inViewport("#outcome"),
            .readAll("#actions:not([hidden])"),
        ])
        #expect(seen[0] as? String == "Café Lumière")
        #expect(seen[1] as? String == "€12.50")
        #expect(seen[2] as? String == "Alipay+ (ALIPAY)")
        #expect((seen[3] as? String)?.hasPrefix("4 min") == true || (seen[3] as? String)?.hasPrefix("5 min") == true, "\(seen[3])")
        #expect(seen[4] as? String == "Paid" && seen[5] as? Bool == true, "\(seen)")
        #expect((seen[6] as? [String])?.isEmpty == true, "once paid, the page is final: no Pay, Decline or Expire")
        #expect(wallet.order("tx-1").string("status") == "paid")
        #expect(host.types(of: "tx-1") == ["order.scanned", "order.paid"], "opening the page scanned the order")
    }

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func declineWithAReasonShowsTheReasonInWords() throws {
        let (wallet, host) = try walletWithOrder()
        defer { wallet.stop(); host.stop() }
        let seen = try BrowserPerson.run([
            .goto(wallet.wallet.url + "/pay/tx-1"), .select("Reason", "insufficient_funds"), .click("Decline"),
            .waitText("#outcome", contains: "Declined"), .read("#outcome"),
        ])
        #expect(seen[0] as? String == "Declined: insufficient funds")
        let order = wallet.order("tx-1")
        #expect(order.string("status") == "declined" && order.string("reason") == "insufficient_funds", "\(order)")
    }

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func lettingItExpireAndAnOrderTheMerchantClosedAreShownInWords() throws {
        let (wallet, host) = try walletWithOrder()
        defer { wallet.stop(); host.stop() }
        wallet.makeOrder("tx-2")
        let closed = wallet.provider("POST", "/provider/v1/orders/tx-2/close", ["reason": "cancelled"])
        try #require(closed.status == 200, "\(closed)")
        let seen = try BrowserPerson.run([
            .goto(wallet.wallet.url + "/pay/tx-1"), .click("Let it expire"), .waitText("#outcome", contains: "Expired"),
            .read("#outcome"), .goto(wallet.wallet.url + "/pay/tx-2"), .read("#outcome"), .readAll("#actions:not([hidden])"),
            .goto(wallet.wallet.url + "/pay/nope"), .read("#outcome"),
        ])
        #expect((seen[0] as? String)?.hasPrefix("Expired") == true, "\(seen[0])")
        #expect(wallet.order("tx-1").string("status") == "expired")
        #expect(seen[1] as? String == "The merchant closed this order")
        #expect((seen[2] as? [String])?.isEmpty == true, "a closed order has no buttons")
        #expect((seen[3] as? String)?.hasPrefix("No such order") == true, "\(seen[3])")
    }

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func theOrdersPageListsTheOrderWithAQRCodeOfItsPayPage() throws {
        let (wallet, host) = try walletWithOrder()
        defer { wallet.stop(); host.stop() }
        let folder = TemporaryDirectory()
        let png = folder.file("qr.png")
        let seen = try BrowserPerson.run([
            .goto(wallet.wallet.url + "/"), .read("li[data-order=\"tx-1\"] strong"), .screenshot("li[data-order=\"tx-1\"] img", to: png),
            .clickLink("Open the pay page"), .read("#merchant-name"),
        ])
        #expect(seen[0] as? String == "Café Lumière · €12.50")
        #expect(try PortalSandboxPageTests.scan(png) == wallet.wallet.url + "/pay/tx-1")
        #expect(seen[1] as? String == "Café Lumière")
        #expect(wallet.order("tx-1").string("status") == "scanned", "following the link opened the pay page")
    }
}
