import Foundation
import SandboxTestSupport
import Testing

@Suite("tapsim: answers and errors", .blocksThreads)
struct OutcomeTests {
    /// A registered, logged-in device with its reader prepared, on `terminal` of EU.
    static func readyDevice(_ sandbox: SandboxUnderTest, terminal: String = "EU-T0101") throws {
        let register = try sandbox.tapsim("register", "quick", "--pin", "2468", "--terminal", terminal)
        try #require(register.status == 0, "\(register)")
        try #require(try sandbox.tapsim("login", "--pin", "2468").status == 0)
        try #require(try sandbox.tapsim("prepare").status == 0)
    }

    @Test("a magic amount's decline is an answer (exit 0, DECLINED); an SDK error exits with its category's code")
    func declineVersusError() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        #expect(try sandbox.tapsim("register", "quick", "--pin", "2468", "--terminal", "EU-T0201").status == 0)

        // Before login: the SDK refuses, category session, exit 13, the error as one JSON object.
        let early = try sandbox.tapsim("--json", "pay", "--amount", "1250", "--currency", "EUR")
        #expect(early.status == 13, "\(early)")
        let error = try #require(early.json?["error"] as? [String: Any], "\(early)")
        #expect(error["category"] as? String == "session")
        #expect(error["exitCode"] as? Int == 13)
        #expect((error["code"] as? String)?.isEmpty == false)
        #expect((error["message"] as? String)?.isEmpty == false)
        // Human form on standard error: category, code and message.
        let human = try sandbox.tapsim("pay", "--amount", "1250", "--currency", "EUR")
        #expect(human.status == 13)
        #expect(human.stderr.hasPrefix("tapsim pay: session."), "\(human)")
        #expect(human.stdout.isEmpty)

        #expect(try sandbox.tapsim("login", "--pin", "2468").status == 0)
        // Logged in but the reader never prepared: the card reader category, exit 11.
        let unprepared = try sandbox.tapsim("--json", "pay", "--amount", "1250", "--currency", "EUR")
        #expect(unprepared.status == 11, "\(unprepared)")
        #expect(unprepared.json?[path: "error", "kind"] as? String == "notPrepared")
        #expect(try sandbox.tapsim("prepare").status == 0)

        let declined = try sandbox.tapsim("--json", "pay", "--amount", "4251", "--currency", "EUR")
        #expect(declined.status == 0, "\(declined)")
        #expect(declined.json?[path: "transaction", "transactionStatus"] as? String == "DECLINED", "\(declined)")
        #expect(declined.json?[path: "transaction", "responseCode"] as? String == "51")
        #expect(declined.json?[path: "outcome", "kind"] as? String == "declined")
        let humanDecline = try sandbox.tapsim("pay", "--amount", "4205", "--currency", "EUR")
        #expect(humanDecline.status == 0, "\(humanDecline)")
        #expect(humanDecline.stdout.contains("DECLINED"), "\(humanDecline)")

        // A currency the terminal does not take: refused before the card reader shows.
        let dollars = try sandbox.tapsim("--json", "pay", "--amount", "1250", "--currency", "USD")
        #expect(dollars.status == 14 && dollars.json?[path: "error", "code"] as? String == "currency_mismatch", "\(dollars)")
        #expect((dollars.json?["events"] as? [Any])?.isEmpty == true, "the reader showed first: \(dollars)")

        // The authorisation timeout (42.68): ONGOING, with how to move on.
        let ongoing = try sandbox.tapsim("pay", "--amount", "4268", "--currency", "EUR")
        #expect(ongoing.status == 0 && ongoing.stdout.contains("ONGOING"), "\(ongoing)")
        #expect(ongoing.stdout.contains("stays busy until 30 s pass") && ongoing.stdout.contains("advanceSeconds"), "\(ongoing)")
        #expect(try sandbox.tapsim("--json", "pay", "--amount", "1250").json?[path: "error", "code"] as? String == "terminal_busy")
        _ = Service(baseURL: try sandbox.host("EU")).call("POST", "/_sandbox/clock", body: ["advanceSeconds": 30])

        // A host refusal: over the terminal's limit is the transaction category, exit 14.
        let over = try sandbox.tapsim("--json", "pay", "--amount", "999999999", "--currency", "EUR")
        #expect(over.status == 14, "\(over)")
        #expect(over.json?[path: "error", "category"] as? String == "transaction")
        #expect(over.json?[path: "error", "code"] as? String == "amount_over_limit", "\(over)")
        // A reversal of an unknown transaction: transaction category too.
        let unknown = try sandbox.tapsim("--json", "reverse", "--transaction", "no-such-transaction")
        #expect(unknown.status == 14, "\(unknown)")
        // The wrong currency is a transaction error as well.
        let currency = try sandbox.tapsim("--json", "validate", "--type", "PAYMENT", "--amount", "100")
        #expect(currency.status == 0, "\(currency)")
    }

    @Test("a foreign card gets a DCC offer that dcc finishes; receipts, statistics and the reader test answer")
    func dccAndReads() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        try Self.readyDevice(sandbox)
        let offer = try sandbox.tapsim("--json", "pay", "--amount", "1000", "--card", "visa-us-dcc")
        #expect(offer.status == 0, "\(offer)")
        #expect(offer.json?[path: "transaction", "transactionStatus"] as? String == "DCC_REQUIRED", "\(offer)")
        let id = try #require(offer.json?[path: "transaction", "transactionId"] as? String)
        let finished = try sandbox.tapsim("--json", "dcc", "--transaction", id, "--accept")
        #expect(finished.status == 0, "\(finished)")
        #expect(finished.json?[path: "transaction", "dccStatus"] as? String == "ACCEPTED", "\(finished)")
        #expect(finished.json?[path: "transaction", "transactionStatus"] as? String == "CLEARED")

        let receipt = try sandbox.tapsim("--json", "receipt", "--transaction", id, "--qr")
        #expect(receipt.status == 0, "\(receipt)")
        #expect((receipt.json?[path: "receipt", "url"] as? String)?.hasPrefix("http") == true, "\(receipt)")
        let stats = try sandbox.tapsim("--json", "stats", "--type", "brand")
        #expect(stats.status == 0, "\(stats)")
        #expect((stats.json?["statistics"] as? [[String: Any]])?.first?["description"] as? String == "VISA", "\(stats)")
        let test = try sandbox.tapsim("--json", "reader-test")
        #expect(test.status == 0, "\(test)")
        #expect(test.json?["cardReadOK"] as? Bool == true, "\(test)")
        let info = try sandbox.tapsim("--json", "terminal-info")
        #expect(info.json?[path: "terminal", "currency", "code"] as? String == "EUR", "\(info)")
    }
}

@Suite("tapsim: prepare's progress", .blocksThreads)
struct ProgressTests {
    @Test("a bar redrawn in place on a terminal (through script(1)'s pseudo-terminal)")
    func barOnTerminal() throws {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        try #require(FileManager.default.isExecutableFile(atPath: script.path), "script(1) (bsdutils) is needed for a pseudo-terminal")
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        try OutcomeTests.readyDevice(sandbox)
        let command = ([sandbox.tapsim.path, "--endpoints", sandbox.endpoints.path, "prepare"]).map { "'\($0)'" }.joined(separator: " ")
        let result = try run(script, ["-q", "-e", "-c", command, "/dev/null"], in: sandbox.work)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\rPreparing the reader ["), "\(result)")
        #expect(result.stdout.contains("] 100 %"), "\(result)")
        #expect(result.stdout.contains("█"))
        #expect(!result.stdout.contains("Preparing the reader: 40 %"), "plain lines on a terminal: \(result)")
    }

    @Test("--json prints the object alone, without progress")
    func silentWithJSON() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        try OutcomeTests.readyDevice(sandbox)
        let result = try sandbox.tapsim("--json", "prepare")
        #expect(result.status == 0, "\(result)")
        let object = try #require(result.json, "\(result)")
        #expect(object["prepared"] as? Bool == true)
        #expect(object["percentage"] as? Int == 100)
    }
}
