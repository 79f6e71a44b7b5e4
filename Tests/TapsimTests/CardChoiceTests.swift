import Foundation
import SandboxTestSupport
import Testing

@Suite("tapsim: the card the customer taps and the PIN they type", .blocksThreads)
struct CardChoiceTests {
    /// Without `--card`, ANZ and mBank sales tap the region's own card: approved, no DCC offer
    /// that would leave the terminal busy.
    @Test("without --card the region's domestic card; --pin-entry wrong declines 55; a malformed card is refused")
    func defaultCardPinEntryAndRefusals() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU", "ANZ", "MBANK"])
        for (region, card, brand, pinCard) in [("ANZ", "eftpos-au", "EFTPOS", "mc-pin-au"), ("MBANK", "visa-pl", "VISA", "mc-pin-pl")] {
            let register = try sandbox.tapsim("--env", region, "register", "quick", "--pin", "2468")
            try #require(register.status == 0, "\(register)")
            try #require(try sandbox.tapsim("--env", region, "login", "--pin", "2468").status == 0)
            try #require(try sandbox.tapsim("--env", region, "prepare").status == 0)

            let sale = try sandbox.tapsim("--env", region, "--json", "pay", "--amount", "1250")
            #expect(sale.status == 0, "\(sale)")
            #expect(sale.json?["card"] as? String == card, "\(region): \(sale)")
            #expect(sale.json?[path: "transaction", "transactionStatus"] as? String == "CLEARED", "\(region): \(sale)")
            #expect(sale.json?[path: "transaction", "cardType"] as? String == brand, "\(region): \(sale)")

            // The next sale is not refused as busy: nothing waits for a DCC choice.
            let wrong = try sandbox.tapsim("--env", region, "--json", "pay", "--amount", "1250", "--pin-entry", "wrong")
            #expect(wrong.status == 0, "\(wrong)")
            #expect(wrong.json?["card"] as? String == pinCard, "\(region): \(wrong)")
            #expect(wrong.json?[path: "transaction", "transactionStatus"] as? String == "DECLINED", "\(region): \(wrong)")
            #expect(wrong.json?[path: "transaction", "responseCode"] as? String == "55", "\(region): \(wrong)")
            #expect(
                wrong.json?["events"] as? [String] == ["displayingCardReader", "enteringPin", "processing", "finishProcessing", "completed"],
                "\(region): \(wrong)")
        }

        // Nothing typed within the reader's 60 s: the read times out (the reader's wait is skipped).
        let none = try sandbox.tapsim("--env", "MBANK", "--json", "pay", "--amount", "1250", "--pin-entry", "none")
        #expect(none.status == 0, "\(none)")
        #expect(none.json?[path: "transaction", "transactionStatus"] as? String == "TIMEOUT", "\(none)")

        let luhn = try sandbox.tapsim("--env", "MBANK", "--json", "pay", "--amount", "1250", "--card", "visa-bad-luhn")
        #expect(luhn.status == 11, "\(luhn)")
        #expect(luhn.json?[path: "error", "code"] as? String == "invalid_pan", "\(luhn)")
        #expect(luhn.json?[path: "error", "kind"] as? String == "invalidPan", "\(luhn)")

        let typo = try sandbox.tapsim("--env", "MBANK", "pay", "--amount", "1250", "--pin-entry", "1")
        #expect(typo.status == 2, "\(typo)")
        #expect(typo.stderr.contains("--pin-entry must be correct, wrong, none or 4 to 12 digits"), "\(typo)")
    }
}
