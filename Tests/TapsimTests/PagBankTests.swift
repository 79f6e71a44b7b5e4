import Foundation
import SandboxTestSupport
import Testing

/// `tapsim pagbank …` (PagBank's Tap On on the command line) against a whole sandbox, and the
/// blocks of docs/pagbank.md that use it, run as written.
@Suite("tapsim: PagBank Tap On", .blocksThreads)
struct PagBankTapsimTests {
    @Test("docs/pagbank.md's \"Try it with tapsim\" journey runs as written")
    func readmeJourney() throws {
        let layout = try HelpExamplesTests.Layout(try SandboxUnderTest())
        let script = try MoneiTapsimTests.blocks("docs/pagbank.md", under: "## Try it with tapsim")
        #expect(script.contains("tapsim pagbank activate"), "\(script)")
        let result = try layout.bash("set -e\n" + script, timeout: 120)
        #expect(result.status == 0, "\(script)\n\(result)")
        #expect(result.stdout.contains("Cancelled: ") && result.stdout.contains("Logged out"), "\(result)")
    }

    @Test("docs/pagbank.md's tapsim block runs as written")
    func docsBlock() throws {
        let layout = try HelpExamplesTests.Layout(try SandboxUnderTest())
        let script = try MoneiTapsimTests.blocks("docs/pagbank.md", under: "### tapsim")
        let result = try layout.bash("set -e\n" + script, timeout: 120)
        #expect(result.status == 0, "\(script)\n\(result)")
        #expect(result.stdout.contains("Tap On is not active"), "\(result)")
    }

    @Test("a sale before activation exits 13, an unknown appKey 12; amounts in centavos; a declined card is an answer (exit 0); under --json the result and the error are one object")
    func answersAndErrors() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU", "PAGBANK"])
        let early = try sandbox.tapsim("--json", "pagbank", "pay", "--amount", "1000")
        #expect(early.status == 13 && early.json?[path: "error", "code"] as? String == "not_activated", "\(early)")
        let stranger = try sandbox.tapsim("pagbank", "activate", "--app-key", "tapon_test_not_a_partner")
        #expect(stranger.status == 12, "\(stranger)")
        #expect(try sandbox.tapsim("pagbank", "activate").status == 0)
        let sale = try sandbox.tapsim("--json", "pagbank", "pay", "--amount", "2550", "--card", "mc-br")
        #expect(sale.status == 0, "\(sale)")
        #expect(sale.json?["amount"] as? String == "2550" && sale.json?["paymentType"] as? String == "debit", "\(sale)")
        #expect(sale.json?["cardBrand"] as? String == "MASTERCARD" && sale.json?["installments"] as? Int == 1, "\(sale)")
        let declined = try sandbox.tapsim("--json", "pagbank", "pay", "--amount", "4205")
        #expect(declined.status == 0 && declined.json?["status"] as? String == "DECLINED" && declined.json?["code"] as? String == "05", "\(declined)")
        let tooMuch = try sandbox.tapsim("pagbank", "pay", "--amount", "1000001")
        #expect(tooMuch.status == 17 && tooMuch.stderr.contains("amount_over_limit"), "\(tooMuch)")
        let reais = try sandbox.tapsim("pagbank", "pay", "--amount", "10.00")
        #expect(reais.status == 2 && reais.stderr.contains("--amount"), "\(reais)")
        let wrongRegion = try sandbox.tapsim("--env", "EU", "pagbank", "status")
        #expect(wrongRegion.status == 2 && wrongRegion.stderr.contains("--env PAGBANK"), "\(wrongRegion)")
    }
}
