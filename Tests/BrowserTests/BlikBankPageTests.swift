import Foundation
import HostTestSupport
import Testing
import SandboxTestSupport

/// The BLIK bank app page as a customer uses it: generate a code and watch it count down, answer
/// the confirmation request a payment sent (made here through the signed provider API, as the
/// mBank host makes it), and see the balance move.
@Suite(.serialized, .blocksThreads) struct BlikBankPageTests {
    static let available = BrowserPerson.isAvailable

    /// "57 s" → 57 (a countdown runs on with real time while the browser starts: only its range is asserted).
    static func seconds(_ seen: Any) -> Int? {
        guard let text = seen as? String, text.hasSuffix(" s") else { return nil }
        return Int(text.dropLast(2))
    }

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func generatingACodeShowsItWithItsCountdownAndItPays() throws {
        let wallet = try InProcessWallet()
        defer { wallet.stop() }
        let seen = try BrowserPerson.run([
            .goto(wallet.wallet.url + "/bank"), .select("Customer", "anna"), .read("#balance"), .click("Generate code"),
            .read("#code"), .read("#code-time-left"), .check("9-digit code"), .click("Generate code"), .waitText("#verification-line", contains: "Verification"),
            .read("#code"), .read("#verification"),
        ])
        #expect((seen[0] as? String)?.contains("50.00") == true, "Anna has 50.00 PLN: \(seen[0])")
        let six = try #require((seen[1] as? String)?.replacingOccurrences(of: " ", with: ""))
        #expect(six.count == 6 && six.allSatisfy(\.isNumber), "\(seen[1])")
        #expect(Self.seconds(seen[2]).map { (1...120).contains($0) } == true, "the countdown of its 120 s: \(seen[2])")
        let nine = try #require((seen[3] as? String)?.replacingOccurrences(of: " ", with: ""))
        let verification = try #require(seen[4] as? String)
        #expect(nine.count == 9 && verification.count == 4, "\(seen[3]) / \(verification)")
        #expect(wallet.blikPay("tx-6", code: six).status == 201, "the code the page showed pays")
        #expect(wallet.blikPay("tx-9", code: nine, verification: verification).status == 201)
        #expect(wallet.confirmationRequests("anna").count == 2)
    }

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func approvingARequestPaysTheMerchantAndTheBalanceMoves() throws {
        let host = try RecordingWalletHost()
        let wallet = try InProcessWallet(hosts: ["MBANK": host.url])
        defer { wallet.stop(); host.stop() }
        let code = try #require(wallet.blikCode(customer: "jan").string("code"))
        try #require(wallet.blikPay("tx-1", code: code, amount: 1250).status == 201)
        let seen = try BrowserPerson.run([
            .viewport(width: 390, height: 844),
            .goto(wallet.wallet.url + "/bank?customer=jan"), .read("li[data-order=\"tx-1\"] .merchant"),
            .read("li[data-order=\"tx-1\"] .amount"), .read("li[data-order=\"tx-1\"] .time-left"), .click("Approve"),
            .waitText("#outcome", contains: "Approved"), .read("#outcome"), .waitText("#balance", contains: "4,987.50"), .read("#balance"),
            .inViewport("#outcome"), .readAll("#requests li"),
        ])
        #expect(seen[5] as? Bool == true, "the answer shows on the phone's screen: \(seen)")
        #expect((seen[6] as? [String])?.isEmpty == true, "the approved request left the list: \(seen)")
        #expect(seen[0] as? String == "Kawiarnia Wisła")
        #expect((seen[1] as? String)?.contains("12.50") == true, "\(seen[1])")
        #expect(Self.seconds(seen[2]).map { (1...60).contains($0) } == true, "the customer's 60 s: \(seen[2])")
        #expect((seen[3] as? String)?.hasPrefix("Approved: ") == true && (seen[3] as? String)?.hasSuffix("paid to Kawiarnia Wisła") == true, "\(seen[3])")
        #expect((seen[4] as? String)?.contains("4,987.50") == true, "\(seen[4])")
        #expect(wallet.balance("jan") == 498_750)
        #expect(host.types(of: "tx-1") == ["order.paid"])
    }

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func decliningARequestWithAReasonSaysSoAndTakesNothing() async throws {
        let host = try RecordingWalletHost()
        let wallet = try InProcessWallet(hosts: ["MBANK": host.url])
        defer { wallet.stop(); host.stop() }
        let code = try #require(wallet.blikCode(customer: "jan").string("code"))
        try #require(wallet.blikPay("tx-1", code: code).status == 201)
        let seen = try BrowserPerson.run([
            .goto(wallet.wallet.url + "/bank?customer=jan"), .read("li[data-order=\"tx-1\"] .merchant"),
            .select("Reason", "limit_exceeded"), .click("Decline"), .waitText("#outcome", contains: "Declined"), .read("#outcome"),
            .readAll("#requests li"),
        ])
        #expect(seen[1] as? String == "Declined: limit exceeded")
        #expect((seen[2] as? [String])?.isEmpty == true, "the answered request left the list")
        #expect(wallet.balance("jan") == 500_000)
        #expect(await eventually { host.notifications.first { $0.orderId == "tx-1" }?.reason == "limit_exceeded" })
    }
}
