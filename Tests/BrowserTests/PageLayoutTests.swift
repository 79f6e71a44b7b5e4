import Foundation
import HostTestSupport
import Launcher
import Testing
import SandboxTestSupport

/// Every page of the portal, the wallet, the bank app and the inbox, as a tester sees it on a
/// laptop (1280 px) and as a customer holds a phone (390 px), on a sandbox with data in it: no
/// page is wider than the window. With `$SCREENSHOTS` set (`make screenshots`), each page's
/// screenshot at both widths is written there as `<page>-<width>.png`, for a person to look at.
@Suite(.blocksThreads) struct PageLayoutTests {
    static let available = BrowserPerson.isAvailable

    /// Where the screenshots go: `$SCREENSHOTS` (`make screenshots` sets it); none without it, since
    /// drawing two dozen whole pages costs the suite more than checking them.
    static var screenshots: URL? {
        guard let path = ProcessInfo.processInfo.environment["SCREENSHOTS"], !path.isEmpty else { return nil }
        let folder = URL(fileURLWithPath: path)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("no page is wider than the window at 1280 px or at 390 px", .enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func noHorizontalOverflow() throws {
        // The hosts the data is on (the seed's EU and mBank parts); the portal, the wallet and the inbox always run.
        let running = try InProcessSandbox(regions: ["EU", "MBANK"])
        defer { running.stop() }
        let sandbox = running.sandbox
        let eu = Service(name: "EU", baseURL: try #require(sandbox.endpoints.environments["EU"]))
        // Data on every page: yesterday's sales, a BLIK device, a QR order waiting, a webhook delivered, a fault, a journal.
        let seed = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Paths.sandboxData.appendingPathComponent("seeds/busy-yesterday.json"))) as? [String: Any])
        for (region, part) in try #require(seed["regions"] as? [String: Any]) {
            let host = Service(name: region, baseURL: try #require(sandbox.endpoints.environments[region]))
            expectReply(host.call("POST", "/_sandbox/seed", body: try #require(part as? [String: Any])), 201, nil, "seed \(region)")
        }
        let made = expectReply(
            eu.call("POST", "/_sandbox/seed", body: ["qrOrders": [["terminalId": "EU-T0101", "amount": 1990, "reference": "TABLE-4"]]]), 201, nil,
            "a QR order waiting")
        let payUrl = try #require(((made["qrOrders"] as? [[String: Any]])?.first)?["payUrl"] as? String, "\(made)")
        expectReply(eu.call("POST", "/_sandbox/webhooks/trigger", body: ["event": "payment.succeeded"]), 202, nil, "a webhook")
        expectReply(eu.call("POST", "/_sandbox/faults", body: ["match": ["path": "/terminal/v1/transactions/sale"], "count": 1, "action": "status", "status": 503]), 201, nil, "a fault")

        let portal = sandbox.portal.url
        let pages: [(String, String)] = [
            ("portal-home", portal + "/"), ("portal-register", portal + "/register.html"), ("portal-terminals", portal + "/terminals.html"),
            ("portal-transactions", portal + "/transactions.html?region=EU"), ("portal-statistics", portal + "/statistics.html?region=EU"),
            ("portal-webhooks", portal + "/webhooks.html?region=EU"), ("portal-mailbox", portal + "/mailbox.html?region=EU"),
            ("portal-sandbox", portal + "/sandbox.html?region=EU"),
            ("wallet-orders", sandbox.wallet.url + "/"), ("wallet-pay", payUrl), ("wallet-bank", sandbox.wallet.url + "/bank.html"),
            ("inbox", sandbox.inbox.url + "/"),
        ]
        // One person visits every page on a laptop's window, then on a phone's.
        var wide: [String] = []
        for (width, height) in [(1280, 800), (390, 844)] {
            let seen = try BrowserPerson.run(
                [.viewport(width: width, height: height)]
                    + pages.flatMap { name, url -> [BrowserPerson.Step] in
                        [.goto(url), .overflow] + (Self.screenshots.map { [.screenshotPage(to: $0.appendingPathComponent("\(name)-\(width).png"))] } ?? [])
                    },
                timeoutMilliseconds: 20_000)
            for ((name, _), overflow) in zip(pages, seen) where overflow as? Int != 0 {
                wide.append("\(name) at \(width) px: \(overflow) px too wide")
            }
        }
        #expect(wide.isEmpty, "\(wide.joined(separator: "\n"))")
    }
}
