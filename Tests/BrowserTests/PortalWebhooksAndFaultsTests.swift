import Foundation
import HostTestSupport
import Launcher
import Testing
import SandboxTestSupport

/// The portal's "Webhooks" page and the "Sandbox" page's faults and request journal, used by a
/// tester against `tapsim`.
@Suite(.serialized, .blocksThreads) struct PortalWebhooksAndFaultsTests {
    static let available = BrowserPerson.isAvailable

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func aTestEventIsSentReplayedAndItsAttemptsShown() throws {
        let bench = try PortalBench()
        let shown = try BrowserPerson.run([
            .goto(bench.portal + "/webhooks.html"), .select("Region", "EU"), .select("Merchant", "EU-M01"),
            .select("Event type", "payment.failed"), .click("Send test event"), .read("#message"), .inViewport("#message"),
            .readAll("#events tbody tr td:nth-child(2)"), .click("Reload"),
            .clickIn("#events tbody tr", name: "Replay"), .read("#message"), .inViewport("#message"),
            .clickLink("payment.failed"), .read("#event-id"), .readAll("#attempts tbody tr"), .click("Close"),
            .read("#monei-key"), .select("Scheme", "standard"), .click("Save"), .read("#secret"), .click("Show secret"), .read("#secret"),
            .read("#endpoint-message"), .inViewport("#endpoint-message"), .readAll("#events tbody tr td.payment"),
        ])
        #expect(shown.compactMap { $0 as? Bool } == [true, true, true], "each answer shows beside its button: \(shown)")
        let seen = shown.filter { !($0 is Bool) }
        #expect((seen[0] as? String)?.hasPrefix("Test event ") == true, "\(seen)")
        #expect((seen[1] as? [String])?.first == "payment.failed", "\(seen)")
        #expect((seen[2] as? String)?.hasPrefix("Replaying ") == true, "\(seen)")
        #expect((seen[3] as? String)?.hasSuffix("payment.failed") == true, "\(seen)")
        #expect((seen[5] as? String)?.contains("signs every delivery with the merchant's API key") == true, "MONEI: no whsec_ secret shown: \(seen)")
        #expect(seen[6] as? String == "••••••••")
        #expect((seen[7] as? String)?.hasPrefix("whsec_") == true, "Standard Webhooks: the secret shows on demand: \(seen)")
        #expect(seen[8] as? String == "Saved.", "Save answers beside the form: \(seen)")
        #expect(seen.last as? [String] == ["sample"], "a test event's payment is made up: no link to a payment that does not exist: \(seen)")
    }

    @Test(.enabled(if: available, "Playwright for Python is missing: run scripts/setup"))
    func aDropFaultSetOnThePageLosesTapsimsAnswerAndTheJournalShowsIt() throws {
        let bench = try PortalBench()
        _ = try bench.tapsim("register quick", "--pin", "1234")
        _ = try bench.tapsim("login", "--pin", "1234")
        _ = try bench.tapsim("prepare")
        let set = try BrowserPerson.run([
            .goto(bench.portal + "/sandbox.html"), .select("Region", "EU"),
            .select("Method", "POST"), .fill("Path", "/terminal/v1/transactions/sale"), .fill("N", "1"),
            .select("Does", "drop"), .click("Add fault"), .read("#fault-message"), .read("#faults tbody tr td:nth-child(2)"),
            .inViewport("#fault-message"),
        ])
        #expect((set[0] as? String)?.hasPrefix("Fault fault_") == true, "\(set)")
        #expect(set[1] as? String == "POST /terminal/v1/transactions/sale", "\(set)")
        #expect(set[2] as? Bool == true, "the answer shows beside Add fault: \(set)")

        // The sale is made, but its answer never reaches the device.
        let lost = try bench.tapsimOutput("pay", "--amount", "1250")
        #expect(lost.status != 0, "\(lost)")
        // At once, as a lost answer: not an unreachable host, not the client's timeout.
        #expect("\(lost)".contains("network.connectionLost"), "\(lost)")
        let paid = try bench.tapsim("pay", "--amount", "1250")
        #expect((paid["transaction"] as? [String: Any])?["transactionStatus"] as? String == "CLEARED", "one request only: \(paid)")

        let journal = try BrowserPerson.run([
            .goto(bench.portal + "/sandbox.html"), .select("Region", "EU"), .select("Journal surface", "terminal"),
            .waitText("#journal tbody", contains: "dropped"), .readAll("#journal tbody td.status"), .readAll("#journal tbody td.fault"),
            .readAll("#faults tbody tr"),
        ])
        let statuses = try #require(journal[0] as? [String])
        #expect(statuses.contains("201 (dropped)"), "\(statuses)")
        #expect((journal[1] as? [String])?.contains { $0.hasPrefix("fault_") } == true, "\(journal)")
        #expect((journal[2] as? [String])?.isEmpty == true, "a spent fault is gone: \(journal)")

        // A fault removed from its row, then the journal cleared: each answer beside its button, each list changed in place.
        let removed = try BrowserPerson.run([
            .goto(bench.portal + "/sandbox.html"), .select("Region", "EU"), .fill("Path", "/terminal/v1/transactions/sale"),
            .select("Does", "drop"), .click("Add fault"), .waitText("#faults tbody", contains: "fault_"),
            .clickIn("#faults tbody tr", name: "Remove"), .waitText("#fault-message", contains: "removed"), .read("#fault-message"),
            .inViewport("#fault-message"), .readAll("#faults tbody tr"),
            .click("Clear journal"), .waitText("#journal-message", contains: "empty"), .inViewport("#journal-message"),
            .readAll("#journal tbody td.status"),
        ])
        #expect((removed[0] as? String)?.hasSuffix(" removed.") == true && removed[1] as? Bool == true, "\(removed)")
        #expect((removed[2] as? [String])?.isEmpty == true, "the row is gone without a reload: \(removed)")
        #expect(removed[3] as? Bool == true, "\(removed)")
        #expect((removed[4] as? [String])?.contains("201 (dropped)") == false, "the dropped request left the journal: \(removed)")
        let stored = Service(name: "portal", baseURL: bench.portal).call("GET", "/api/regions/EU/transactions?status=CLEARED")
        #expect(stored.array("transactions")?.count == 2, "the dropped sale was stored: \(stored)")
    }
}
