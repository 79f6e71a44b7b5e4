import Foundation
import SandboxTestSupport
import Testing

@Suite("tapsim: a device across separate invocations", .blocksThreads)
struct JourneyTests {
    /// register quick → login → prepare → pay → history → refund → reverse, one process each, one
    /// device folder (the default: `devices/EU` beside the `endpoints.json` the runs name).
    @Test("register quick, login, prepare, pay, history, refund, reverse")
    func journey() throws {
        let sandbox = try SandboxUnderTest()

        let fresh = try sandbox.tapsim("--json", "status")
        #expect(fresh.status == 0, "\(fresh)")
        #expect(fresh.json?["registered"] as? Bool == false, "\(fresh)")

        // sandbox-data found through $TAPSANDBOX_HOME, as every executable finds it.
        let register = try run(
            sandbox.tapsim, ["--endpoints", sandbox.endpoints.path, "--json", "register", "quick", "--pin", "2468"],
            in: sandbox.work, environment: ["TAPSANDBOX_HOME": Paths.repository.path])
        #expect(register.status == 0, "\(register)")
        let registered = try #require(register.json, "\(register)")
        let terminal = try #require(registered["terminalId"] as? String)
        #expect(registered["registered"] as? Bool == true)
        #expect((registered["backofficeCode"] as? String)?.hasPrefix("EU-") == true)
        #expect((registered["challengeCode"] as? String)?.count == 9)
        let deviceFolder = sandbox.devices.appendingPathComponent("EU")
        #expect(FileManager.default.fileExists(atPath: deviceFolder.appendingPathComponent("device.json").path))

        // The host's back office agrees: the terminal has this device now.
        let merchants = try backOfficeTerminals(sandbox, "EU")
        #expect(merchants[terminal] == true, "back office: \(merchants)")

        let login = try sandbox.tapsim("--json", "login", "--pin", "2468")
        #expect(login.status == 0, "\(login)")
        #expect(login.json?["terminalId"] as? String == terminal)

        // Plain progress lines when standard output is not a terminal.
        let prepare = try sandbox.tapsim("prepare")
        #expect(prepare.status == 0, "\(prepare)")
        #expect(prepare.stdout.contains("Preparing the reader: 0 %\n"), "\(prepare)")
        #expect(prepare.stdout.contains("Preparing the reader: 100 %\n"), "\(prepare)")
        #expect(!prepare.stdout.contains("\r"))

        // --json: exactly one object, no progress.
        let first = try sandbox.tapsim("--json", "pay", "--amount", "1250", "--currency", "EUR")
        #expect(first.status == 0, "\(first)")
        let sale = try #require(first.json?["transaction"] as? [String: Any], "\(first)")
        #expect(sale["transactionStatus"] as? String == "CLEARED")
        #expect(sale["transactionAmount"] as? Int == 1250)
        #expect(sale["responseCode"] as? String == "00")
        #expect(sale["cardType"] as? String == "VISA")
        #expect(sale["terminalId"] as? String == terminal)
        #expect(first.json?["events"] as? [String] == ["displayingCardReader", "processing", "finishProcessing", "completed"])
        let firstId = try #require(sale["transactionId"] as? String)

        // Global options may follow the command; --card picks the test card.
        let second = try sandbox.tapsim("pay", "--amount", "800", "--card", "mc", "--json")
        #expect(second.status == 0, "\(second)")
        #expect(second.json?[path: "transaction", "cardType"] as? String == "MASTERCARD", "\(second)")
        let secondId = try #require(second.json?[path: "transaction", "transactionId"] as? String)

        let history = try sandbox.tapsim("--json", "history")
        #expect(history.status == 0, "\(history)")
        let items = try #require(history.json?[path: "history", "items"] as? [[String: Any]], "\(history)")
        #expect(items.compactMap { $0["transactionId"] as? String } == [secondId, firstId])

        // The first sale is no longer the latest: it is refunded, the second reversed.
        let refund = try sandbox.tapsim("--json", "refund", "--transaction", firstId, "--amount", "1250")
        #expect(refund.status == 0, "\(refund)")
        #expect(refund.json?[path: "transaction", "transactionType"] as? String == "REFUND", "\(refund)")
        #expect(refund.json?[path: "transaction", "transactionStatus"] as? String == "CLEARED")
        #expect(refund.json?[path: "transaction", "refundedTransactionId"] as? String == firstId)

        let reverse = try sandbox.tapsim("--json", "reverse", "--transaction", secondId)
        #expect(reverse.status == 0, "\(reverse)")
        #expect(reverse.json?["transactionStatus"] as? String == "CANCELLED", "\(reverse)")

        let details = try sandbox.tapsim("--json", "details", "--transaction", firstId)
        #expect(details.json?[path: "transaction", "transactionStatus"] as? String == "REFUNDED", "\(details)")
        let count = try sandbox.tapsim("--json", "count")
        #expect(count.json?["count"] as? Int == 3, "\(count)")

        // Human output names the outcome.
        let human = try sandbox.tapsim("history")
        #expect(human.status == 0)
        #expect(human.stdout.contains("3 transactions"), "\(human)")
        #expect(human.stdout.contains("REFUNDED") && human.stdout.contains("CANCELLED"), "\(human)")

        // After logout the session is gone for the next invocation too.
        #expect(try sandbox.tapsim("logout").status == 0)
        let afterLogout = try sandbox.tapsim("--json", "history")
        #expect(afterLogout.status == 13, "\(afterLogout)")

        let unregister = try sandbox.tapsim("--json", "unregister")
        #expect(unregister.status == 0, "\(unregister)")
        #expect(try backOfficeTerminals(sandbox, "EU")[terminal] == false)
        #expect(try sandbox.tapsim("--json", "status").json?["registered"] as? Bool == false)
    }

    @Test("register token with a token the back office issued; the session ends on the host's clock")
    func tokenAndExpiry() throws {
        let sandbox = try SandboxUnderTest()
        let host = try sandbox.host("MBANK")
        let key = try backOfficeKey("MBANK")
        let issued = try request("POST", host + "/backoffice/v1/registration-tokens", bearer: key, body: #"{"terminalId":"MBANK-T0201"}"#)
        #expect(issued.status == 201, "\(issued)")
        let token = try #require(issued.json?["registrationToken"] as? String)

        let register = try sandbox.tapsim("--env", "MBANK", "--json", "register", "token", "--token", token, "--pin", "1357")
        #expect(register.status == 0, "\(register)")
        #expect(register.json?["terminalId"] as? String == "MBANK-T0201")
        let again = try sandbox.tapsim("--env", "MBANK", "--json", "register", "token", "--token", token)
        #expect(again.status == 12, "\(again)")
        #expect(again.json?[path: "error", "category"] as? String == "registration")

        #expect(try sandbox.tapsim("--env", "MBANK", "login", "--pin", "1357").status == 0)
        #expect(try sandbox.tapsim("--env", "MBANK", "terminal-info").status == 0)
        // Ten minutes and a second later on the host's clock, the session has ended.
        let moved = try request("POST", host + "/_sandbox/clock", body: #"{"advanceSeconds":601}"#)
        #expect(moved.status == 200, "\(moved)")
        let expired = try sandbox.tapsim("--env", "MBANK", "--json", "terminal-info")
        #expect(expired.status == 13, "\(expired)")
        #expect(expired.json?[path: "error", "kind"] as? String == "sessionExpired", "\(expired)")
    }

    @Test("demo walks from registration to refund and frees its terminal")
    func demo() throws {
        let sandbox = try SandboxUnderTest()
        let result = try sandbox.tapsim("--env", "ANZ", "--json", "demo")
        #expect(result.status == 0, "\(result)")
        let steps = try #require(result.json?["steps"] as? [[String: Any]], "\(result)")
        let titles = steps.compactMap { $0["step"] as? String }
        #expect(titles.contains { $0.hasPrefix("Refund the first sale") }, "\(titles)")
        #expect(titles.last?.hasPrefix("Unregister") == true, "\(titles)")
        #expect(try backOfficeTerminals(sandbox, "ANZ").values.allSatisfy { !$0 })

        let human = try sandbox.tapsim("--env", "ANZ", "demo")
        #expect(human.status == 0, "\(human)")
        #expect(human.stdout.contains("1. Initialize the SDK for sandboxANZ"), "\(human)")
        #expect(human.stdout.contains("Demo finished"), "\(human)")
    }
}

// MARK: - The back office, as the portal uses it

/// The region's back-office key from sandbox-data/merchants.json.
func backOfficeKey(_ region: String) throws -> String {
    let data = try Data(contentsOf: Paths.sandboxData.appendingPathComponent("merchants.json"))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require(object[path: "regions", region, "backOfficeKey"] as? String)
}

/// Terminal id → whether it has a device, from `GET /backoffice/v1/merchants`.
func backOfficeTerminals(_ sandbox: SandboxUnderTest, _ region: String) throws -> [String: Bool] {
    let answer = try request("GET", try sandbox.host(region) + "/backoffice/v1/merchants", bearer: try backOfficeKey(region))
    var terminals: [String: Bool] = [:]
    for merchant in answer.json?["merchants"] as? [[String: Any]] ?? [] {
        for terminal in merchant["terminals"] as? [[String: Any]] ?? [] {
            if let id = terminal["terminalId"] as? String { terminals[id] = terminal["registered"] as? Bool ?? false }
        }
    }
    return terminals
}
