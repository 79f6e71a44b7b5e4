import Foundation
import SandboxTestSupport
import Testing

/// `tapsim blik code|pay|refund` against the whole sandbox (host + the wallet's bank), the bank
/// app's buttons pressed through the wallet's API (docs/blik.md "SDK and tapsim"). Serialized:
/// each test runs a whole sandbox and several tapsim processes.
@Suite("tapsim: BLIK payments", .serialized, .blocksThreads)
struct BlikTests {
    /// A registered, logged-in mBank device on MBANK-T0101 (BLIK on).
    static func loggedIn(_ sandbox: SandboxUnderTest) throws {
        let register = try sandbox.tapsim("--env", "MBANK", "register", "quick", "--pin", "2468", "--terminal", "MBANK-T0101")
        try #require(register.status == 0, "\(register)")
        try #require(try sandbox.tapsim("--env", "MBANK", "login", "--pin", "2468").status == 0)
    }

    @Test("blik code prints a fresh 6-digit code (or 9 digits and a verification code) valid 120 s; an unknown customer is refused")
    func code() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU", "MBANK"])
        let six = try sandbox.tapsim("--json", "blik", "code", "--customer", "anna")
        #expect(six.status == 0, "\(six)")
        let code = try #require(six.json?["code"] as? String, "\(six)")
        #expect(code.count == 6 && code.allSatisfy(\.isNumber) && six.json?["customerId"] as? String == "anna", "\(six)")
        #expect(six.json?["expiresInSeconds"] as? Int == 120, "\(six)")
        let again = try sandbox.tapsim("--field", "code", "blik", "code", "--customer", "anna")
        #expect(again.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != code, "a fresh code each time")

        let nine = try sandbox.tapsim("blik", "code", "--nine")
        #expect(nine.status == 0, "\(nine)")
        #expect(nine.stdout.contains("BLIK code for jan: ") && nine.stdout.contains("verification "), "\(nine)")

        let nobody = try sandbox.tapsim("--json", "blik", "code", "--customer", "nobody")
        #expect(nobody.status == 14 && nobody.json?[path: "error", "code"] as? String == "customer_not_found", "\(nobody)")
    }

    @Test("blik pay: approve in the bank app (CLEARED, the code typed as the app shows it), decline with a reason, a CI code, a used code refused (exit 14), --no-answer waits")
    func pay() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU", "MBANK"])
        try Self.loggedIn(sandbox)
        func freshCode(_ customer: String = "jan") throws -> String {
            try sandbox.tapsim("--field", "code", "blik", "code", "--customer", customer).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let code = try freshCode()
        // Typed as the bank app shows it, `118 137`.
        let shown = "\(code.prefix(3)) \(code.dropFirst(3))"
        let approved = try sandbox.tapsim("--env", "MBANK", "--json", "blik", "pay", "--amount", "4500", "--reference", "B-7", "--code", shown, "--approve")
        #expect(approved.status == 0, "\(approved)")
        let json = try #require(approved.json, "\(approved)")
        #expect(json[path: "transaction", "transactionStatus"] as? String == "CLEARED", "\(json)")
        #expect(json[path: "transaction", "paymentMethod"] as? String == "BLIK" && json[path: "transaction", "externalID"] as? String == "B-7")
        #expect(json[path: "bank", "action"] as? String == "approve" && json[path: "bank", "status"] as? String == "paid", "\(json)")
        #expect(json["events"] as? [String] == ["processing", "completed"], "\(json)")
        #expect(json["outcome"] == nil)

        // The same code again: used, refused at once.
        let reused = try sandbox.tapsim("--env", "MBANK", "--json", "blik", "pay", "--amount", "4500", "--code", code, "--approve")
        #expect(reused.status == 14 && reused.json?[path: "error", "code"] as? String == "blik_code_used", "\(reused)")

        let declined = try sandbox.tapsim("--env", "MBANK", "blik", "pay", "--amount", "1000", "--code", try freshCode(), "--decline", "declined_by_customer")
        #expect(declined.status == 0, "\(declined)")
        #expect(declined.stdout.contains("DECLINED") && declined.stdout.contains("declined_by_customer"), "\(declined)")

        let poor = try sandbox.tapsim("--env", "MBANK", "--json", "blik", "pay", "--amount", "6000", "--code", try freshCode("anna"), "--approve")
        #expect(poor.json?[path: "transaction", "declineReason"] as? String == "insufficient_funds", "\(poor)")
        #expect(poor.json?[path: "outcome", "kind"] as? String == "declined", "\(poor)")

        let ci = try sandbox.tapsim("--env", "MBANK", "--json", "blik", "pay", "--amount", "2000", "--code", "777123")
        #expect(ci.status == 0 && ci.json?[path: "transaction", "transactionStatus"] as? String == "CLEARED", "\(ci)")

        let unknown = try sandbox.tapsim("--env", "MBANK", "--json", "blik", "pay", "--amount", "2000", "--code", "123456")
        #expect(unknown.status == 14 && unknown.json?[path: "error", "code"] as? String == "blik_code_unknown", "\(unknown)")
        #expect(unknown.json?[path: "error", "kind"] as? String == "invalidPayCode", "\(unknown)")

        let both = try sandbox.tapsim("--env", "MBANK", "blik", "pay", "--amount", "2000", "--code", "777123", "--approve", "--no-answer")
        #expect(both.status == 2, "\(both)")
    }

    @Test("blik refund: partial refunds up to the payment; one beyond it is refused (exit 14)")
    func refund() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU", "MBANK"])
        try Self.loggedIn(sandbox)
        let paid = try sandbox.tapsim("--env", "MBANK", "--field", "transaction.transactionId", "blik", "pay", "--amount", "1000", "--code", "777123")
        let id = paid.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(paid.status == 0 && !id.isEmpty, "\(paid)")
        for amount in ["600", "400"] {
            let refund = try sandbox.tapsim("--env", "MBANK", "--json", "blik", "refund", id, "--amount", amount)
            #expect(refund.status == 0, "\(refund)")
            #expect(refund.json?[path: "transaction", "transactionType"] as? String == "REFUND")
            #expect(refund.json?[path: "transaction", "transactionStatus"] as? String == "CLEARED", "\(refund)")
        }
        let beyond = try sandbox.tapsim("--env", "MBANK", "--json", "blik", "refund", "--transaction", id, "--amount", "1")
        #expect(beyond.status == 14, "\(beyond)")

        // An mBank app's count and history agree: tapsim count names BLIK, which the seed's default leaves out.
        let count = try sandbox.tapsim("--env", "MBANK", "--json", "count")
        let history = try sandbox.tapsim("--env", "MBANK", "--json", "history")
        let total = try #require(history.json?[path: "history", "total"] as? Int, "\(history)")
        #expect(total >= 3 && count.json?["count"] as? Int == total, "count \(count), history total \(total)")
    }

    @Test("docs/blik.md \"SDK and tapsim\": every sh line runs as written")
    func docsRunAsWritten() throws {
        let text = try String(contentsOf: Paths.repository.appendingPathComponent("docs/blik.md"), encoding: .utf8)
        let start = try #require(text.range(of: "## SDK and tapsim"))
        let rest = text[start.upperBound...]
        let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        var lines: [String] = []
        var inBlock = false
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```sh" { inBlock = true } else if line == "```" { inBlock = false } else if inBlock { lines.append(String(line)) }
        }
        #expect(lines.count >= 5, "\(lines)")
        let layout = try HelpExamplesTests.Layout(try SandboxUnderTest())
        try layout.arrange(.blikLoggedIn)
        let script = "set -e\n" + lines.joined(separator: "\n")
        let result = try layout.bash(script, timeout: 120)
        #expect(result.status == 0, "\(script)\n\(result)")
    }
}
