import Foundation
import SandboxTestSupport
import Testing

/// `tapsim geopagos …` (Geopagos' Payments SDK on the command line) against a whole sandbox, and
/// docs/geopagos.md's blocks that use it, run as written.
@Suite("tapsim: Geopagos Payments SDK", .blocksThreads)
struct GeopagosTapsimTests {
    @Test("docs/geopagos.md's \"Try it with tapsim\" journey runs as written")
    func readmeJourney() throws {
        let layout = try HelpExamplesTests.Layout(try SandboxUnderTest())
        let script = try MoneiTapsimTests.blocks("docs/geopagos.md", under: "## Try it with tapsim")
        #expect(script.contains("tapsim geopagos cancel"), "\(script)")
        let result = try layout.bash("set -e\n" + script, timeout: 120)
        #expect(result.status == 0, "\(script)\n\(result)")
        #expect(result.stdout.contains("Reader token for GEOPAGOS-T0101") && result.stdout.contains("CANCELLED"), "\(result)")
    }

    @Test("docs/geopagos.md's tapsim block runs as written")
    func docsBlock() throws {
        let layout = try HelpExamplesTests.Layout(try SandboxUnderTest())
        let script = try MoneiTapsimTests.blocks("docs/geopagos.md", under: "### tapsim")
        let result = try layout.bash("set -e\n" + script, timeout: 120)
        #expect(result.status == 0, "\(script)\n\(result)")
        #expect(result.stdout.contains("DECLINED"), "\(result)")
    }

    @Test("a payment on another terminal, refunded after the cancel window; amounts in centavos; a declined card is an answer (exit 0); errors exit in their categories, one JSON object under --json")
    func answersAndErrors() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU", "GEOPAGOS"])
        let sale = try sandbox.tapsim(
            "--json", "geopagos", "pay", "--amount", "250050", "--card", "mc-ar", "--installments", "3", "--terminal", "GEOPAGOS-T0102")
        #expect(sale.status == 0, "\(sale)")
        #expect(sale.json?["amount"] as? Int == 250050 && sale.json?["currency"] as? String == "ARS", "\(sale)")
        #expect(sale.json?["terminalId"] as? String == "GEOPAGOS-T0102" && sale.json?["installments"] as? Int == 3, "\(sale)")
        let id = try #require(sale.json?["transactionId"] as? String)
        let early = try sandbox.tapsim("--json", "geopagos", "refund", "--transaction", id, "--amount", "250050", "--card", "mc-ar", "--terminal", "GEOPAGOS-T0102")
        #expect(early.status == 14 && early.json?[path: "error", "code"] as? String == "transaction_still_cancellable", "\(early)")
        let host = Service(name: "GEOPAGOS", baseURL: try #require(sandbox.sandbox.endpoints.environments["GEOPAGOS"]))
        #expect(host.call("POST", "/_sandbox/clock", body: ["advanceSeconds": 31 * 60]).status == 200)
        let refund = try sandbox.tapsim("--json", "geopagos", "refund", "--transaction", id, "--amount", "250050", "--card", "mc-ar", "--terminal", "GEOPAGOS-T0102")
        #expect(refund.status == 0 && refund.json?["type"] as? String == "refund", "\(refund)")
        let otherCard = try sandbox.tapsim("--json", "geopagos", "cancel", "--transaction", id, "--amount", "250050", "--terminal", "GEOPAGOS-T0102")
        #expect(otherCard.status == 14, "\(otherCard)")
        let declined = try sandbox.tapsim("--json", "geopagos", "pay", "--amount", "4205")
        #expect(declined.status == 0 && declined.json?["status"] as? String == "DECLINED", "\(declined)")
        #expect(declined.json?["code"] as? String == "05" && declined.json?["amount"] as? Int == 4205, "\(declined)")
        let pesos = try sandbox.tapsim("geopagos", "pay", "--amount", "100.00")
        #expect(pesos.status == 2 && pesos.stderr.contains("--amount"), "\(pesos)")
        let nobody = try sandbox.tapsim("geopagos", "pay", "--amount", "1000", "--no-tap")
        #expect(nobody.status == 14 && nobody.stderr.contains("card_read_timeout"), "\(nobody)")
        let stranger = try sandbox.tapsim("geopagos", "token", "--terminal", "PAGBANK-T0101")
        #expect(stranger.status == 17 && stranger.stderr.contains("terminal_not_found"), "\(stranger)")
        let wrongRegion = try sandbox.tapsim("--env", "EU", "geopagos", "token")
        #expect(wrongRegion.status == 2 && wrongRegion.stderr.contains("--env GEOPAGOS"), "\(wrongRegion)")
    }
}
