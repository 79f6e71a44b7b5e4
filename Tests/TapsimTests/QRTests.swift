import Foundation
import SandboxTestSupport
import Testing

/// `tapsim qr pay|cancel|refund` against the whole sandbox (host + wallet simulator), the
/// customer's buttons pressed through the wallet's API (docs/qr-payments.md "SDK and tapsim").
/// Serialized: each test runs a whole sandbox and several tapsim processes.
@Suite("tapsim: QR wallet payments", .serialized, .blocksThreads)
struct QRTests {
    /// A registered, logged-in device on EU-T0101 (APMs on).
    static func loggedIn(_ sandbox: SandboxUnderTest) throws {
        let register = try sandbox.tapsim("register", "quick", "--pin", "2468", "--terminal", "EU-T0101")
        try #require(register.status == 0, "\(register)")
        try #require(try sandbox.tapsim("login", "--pin", "2468").status == 0)
    }

    @Test("qr pay: the QR drawn in the terminal and its URL, then approve, decline with a reason, expire; each an answer (exit 0)")
    func pay() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        try Self.loggedIn(sandbox)
        let wallet = try #require(sandbox.sandbox.endpoints.wallet)

        let approved = try sandbox.tapsim("--json", "qr", "pay", "--amount", "1250", "--reference", "QR-7", "--approve")
        #expect(approved.status == 0, "\(approved)")
        let json = try #require(approved.json, "\(approved)")
        #expect(json[path: "transaction", "transactionStatus"] as? String == "CLEARED", "\(json)")
        #expect(json[path: "transaction", "externalID"] as? String == "QR-7")
        #expect(json[path: "wallet", "status"] as? String == "paid")
        #expect(json["events"] as? [String] == ["displayBrands", "displayQR", "completed"], "\(json)")
        let id = try #require(json[path: "transaction", "transactionId"] as? String)
        #expect(json["qrCode"] as? String == wallet + "/pay/" + id)
        #expect(json["outcome"] == nil)

        let declined = try sandbox.tapsim("qr", "pay", "--amount", "1250", "--decline", "insufficient_funds")
        #expect(declined.status == 0, "\(declined)")
        #expect(declined.stdout.contains("▀") || declined.stdout.contains("▄"), "the QR is drawn: \(declined.stdout)")
        #expect(declined.stdout.contains(wallet + "/pay/"))
        #expect(declined.stdout.contains("DECLINED") && declined.stdout.contains("insufficient_funds"), "\(declined)")

        let expired = try sandbox.tapsim("--json", "qr", "pay", "--amount", "1250", "--brand", "wechatpay", "--expire")
        #expect(expired.status == 0, "\(expired)")
        #expect(expired.json?[path: "transaction", "transactionStatus"] as? String == "TIMEOUT", "\(expired)")
        #expect(expired.json?[path: "transaction", "brand"] as? String == "WECHATPAY")
        #expect(expired.json?[path: "outcome", "kind"] as? String == "timedOut", "\(expired)")

        // A brand the terminal does not take: the host refuses, a transaction error (exit 14).
        let twint = try sandbox.tapsim("--json", "qr", "pay", "--amount", "1250", "--brand", "TWINT", "--approve")
        #expect(twint.status == 14 && twint.json?[path: "error", "code"] as? String == "apm_brand_unavailable", "\(twint)")
    }

    @Test("qr cancel: a pending order ends USER_CANCELLED; a paid one is refused (apm_already_paid, exit 14)")
    func cancel() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        try Self.loggedIn(sandbox)
        let pending = try sandbox.tapsim("--field", "transaction.transactionId", "qr", "pay", "--amount", "1250", "--no-wait")
        #expect(pending.status == 0, "\(pending)")
        let id = pending.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let cancelled = try sandbox.tapsim("--json", "qr", "cancel", id, "--reason", "customer left")
        #expect(cancelled.status == 0, "\(cancelled)")
        #expect(cancelled.json?[path: "transaction", "transactionStatus"] as? String == "USER_CANCELLED", "\(cancelled)")

        let paid = try sandbox.tapsim("--field", "transaction.transactionId", "qr", "pay", "--amount", "1250", "--approve")
        let refused = try sandbox.tapsim("--json", "qr", "cancel", "--transaction", paid.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(refused.status == 14, "\(refused)")
        #expect(refused.json?[path: "error", "code"] as? String == "apm_already_paid", "\(refused)")
    }

    @Test("qr refund: partial refunds up to the payment, each read as soon as the wallet answered (not apmPulling's 5 s later); one beyond it is refused (exit 14)")
    func refund() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU"])
        try Self.loggedIn(sandbox)
        let paid = try sandbox.tapsim("--field", "transaction.transactionId", "qr", "pay", "--amount", "1000", "--approve")
        let id = paid.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for amount in ["600", "400"] {
            let began = ContinuousClock.now
            let refund = try sandbox.tapsim("--json", "qr", "refund", id, "--amount", amount)
            // At the phone's pace the first poll comes 5 s after the refund was made: this bound
            // catches that cadence, not a slow machine.
            #expect(ContinuousClock.now - began < .seconds(4.5), "the refund was polled at apmPulling's pace")
            #expect(refund.status == 0, "\(refund)")
            #expect(refund.json?[path: "transaction", "transactionType"] as? String == "REFUND")
            #expect(refund.json?[path: "transaction", "transactionStatus"] as? String == "CLEARED", "\(refund)")
            #expect(refund.json?[path: "transaction", "refundedTransactionId"] as? String == id)
        }
        let beyond = try sandbox.tapsim("--json", "qr", "refund", id, "--amount", "1")
        #expect(beyond.status == 14, "\(beyond)")
        #expect(beyond.json?[path: "error", "category"] as? String == "transaction", "\(beyond)")
    }

    @Test("docs/qr-payments.md \"SDK and tapsim\": every sh line runs as written")
    func docsRunAsWritten() throws {
        let text = try String(contentsOf: Paths.repository.appendingPathComponent("docs/qr-payments.md"), encoding: .utf8)
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
        try layout.arrange(.loggedIn)
        // One shell, so a variable set by one line is there for the next; every line must succeed.
        let script = "set -e\n" + lines.joined(separator: "\n")
        let result = try layout.bash(script, timeout: 120)
        #expect(result.status == 0, "\(script)\n\(result)")
    }
}
