import Foundation
import HostTestSupport
import Launcher
import SandboxCore
import SandboxHTTP
import Testing
import SandboxTestSupport

/// The portal and wallet landing pages, as a browser shows them with the whole sandbox running.
@Suite(.serialized, .blocksThreads) struct LandingPageTests {
    static func startSandbox(in folder: TemporaryDirectory) throws -> Sandbox {
        try InProcessSandbox(directory: folder).sandbox
    }

    /// The cells of the row of one region in the portal's environment table.
    static func row(_ region: String, in dom: String) -> [String]? {
        guard let start = dom.range(of: "<tr data-region=\"\(region)\">"),
            let end = dom.range(of: "</tr>", range: start.upperBound..<dom.endIndex)
        else { return nil }
        let html = String(dom[start.upperBound..<end.lowerBound])
        return html.components(separatedBy: "</td>").dropLast().map { cell in
            cell.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
        }
    }

    @Test func portalListsEveryHostUpInCatalogueOrder() throws {
        let folder = TemporaryDirectory()
        let sandbox = try Self.startSandbox(in: folder)
        defer { sandbox.stop() }
        let dom = try HeadlessChromium.dom(of: sandbox.portal.url + "/")
        let regions = sandbox.hosts.map(\.name)
        var previous = dom.startIndex
        for host in sandbox.hosts {
            let cells = try #require(Self.row(host.name, in: dom), "no row for \(host.name)")
            #expect(Array(cells.prefix(5)) == [host.name, host.url, "sandbox", host.configuration.region.currency.code, "up"])
            #expect(cells.last?.contains("Transactions") == true, "the region's pages: \(cells)")
            let position = try #require(dom.range(of: "data-region=\"\(host.name)\""))
            #expect(position.lowerBound > previous, "\(host.name) out of catalogue order \(regions)")
            previous = position.lowerBound
        }
        // The home page links the customer's side and the backend's.
        #expect(dom.contains("id=\"wallet-link\" href=\"\(sandbox.wallet.url)\""), "the wallet")
        #expect(dom.contains("id=\"bank-link\" href=\"\(sandbox.wallet.url)/bank.html\""), "the bank app")
        #expect(dom.contains("id=\"inbox-link\" href=\"\(sandbox.inbox.url)\""), "the inbox")
    }

    @Test func portalShowsAStoppedHostAsDown() throws {
        let folder = TemporaryDirectory()
        let sandbox = try Self.startSandbox(in: folder)
        defer { sandbox.stop() }
        let stopped = try #require(sandbox.hosts.first { $0.name == "PAYPHONE" })
        stopped.stop()
        let dom = try HeadlessChromium.dom(of: sandbox.portal.url + "/")
        #expect(Self.row("PAYPHONE", in: dom)?[4] == "down")
        #expect(Self.row("EU", in: dom)?[4] == "up")
    }

    @Test func walletPageListsNoOpenOrdersOnAFreshSandbox() throws {
        let folder = TemporaryDirectory()
        let sandbox = try Self.startSandbox(in: folder)
        defer { sandbox.stop() }
        let dom = try HeadlessChromium.dom(of: sandbox.wallet.url + "/")
        #expect(dom.contains("No open orders. Start a QR payment on a device"), "\(dom)")
    }
}
