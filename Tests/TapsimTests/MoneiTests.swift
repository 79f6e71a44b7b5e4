import Foundation
import SandboxTestSupport
import Testing

/// `tapsim monei token|prepare|pay` (MONEI's device SDK on the command line) against a whole sandbox,
/// and docs/monei.md's blocks that use them, run as written.
@Suite("tapsim: MONEI Tap to Pay", .blocksThreads)
struct MoneiTapsimTests {
    /// The `sh` blocks of the section under `heading` in `file`, as one script.
    static func blocks(_ file: String, under heading: String) throws -> String {
        let text = try String(contentsOf: Paths.repository.appendingPathComponent(file), encoding: .utf8)
        let start = try #require(text.range(of: heading), "\(file) has no \(heading)")
        let rest = text[start.upperBound...]
        let level = heading.prefix { $0 == "#" }
        let section = rest.range(of: "\n\(level) ").map { rest[..<$0.lowerBound] } ?? rest
        var lines: [String] = []
        var inBlock = false
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```sh" { inBlock = true } else if line == "```" { inBlock = false } else if inBlock { lines.append(String(line)) }
        }
        return lines.joined(separator: "\n")
    }

    /// `script` with the default ports of `sandbox up` put where this sandbox listens.
    static func onThisSandbox(_ script: String, _ sandbox: SandboxUnderTest) throws -> String {
        let moved = script
            .replacingOccurrences(of: "http://127.0.0.1:8112", with: try sandbox.host("MONEI"))
            .replacingOccurrences(of: "http://127.0.0.1:8111", with: sandbox.sandbox.inbox.url)
        #expect(moved != script, "the block names the default ports")
        return moved
    }

    @Test("docs/monei.md's \"Try it with tapsim\" journey runs as written: token, prepare, pay, the callback verified by MONEI's library, reconciled")
    func readmeJourney() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU", "MONEI"])
        let layout = try HelpExamplesTests.Layout(sandbox)
        let script = try Self.onThisSandbox(try Self.blocks("docs/monei.md", under: "## Try it with tapsim"), sandbox)
        let result = try layout.bash("set -e\n" + script, timeout: 120)
        #expect(result.status == 0, "\(script)\n\(result)")
        #expect(result.stdout.contains("verified: SUCCEEDED reconciled: SUCCEEDED"), "\(result)")
    }

    @Test("docs/monei.md's tapsim block runs as written")
    func docsBlock() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU", "MONEI"])
        let layout = try HelpExamplesTests.Layout(sandbox)
        let script = try Self.onThisSandbox(try Self.blocks("docs/monei.md", under: "### tapsim"), sandbox)
        let result = try layout.bash("set -e\n" + script, timeout: 120)
        #expect(result.status == 0, "\(script)\n\(result)")
        #expect(result.stdout.contains("approved") && result.stdout.contains("declined"), "\(result)")
    }

    @Test("a MONEI error exits in its category with monei.<case> and, under --json, the error object")
    func errors() throws {
        let sandbox = try SandboxUnderTest(regions: ["EU", "MONEI"])
        let monei = Service(name: "MONEI", baseURL: try sandbox.host("MONEI"))

        // Nothing prepared on this device yet.
        let unprepared = try sandbox.tapsim("--json", "monei", "pay", "--amount", "1050", "--order-id", "o-1")
        #expect(unprepared.status == 2 && unprepared.stderr.contains("tapsim monei prepare"), "\(unprepared)")

        let token = try sandbox.tapsim("--field", "token", "monei", "token")
        #expect(token.status == 0, "\(token)")
        let prepared = try sandbox.tapsim("monei", "prepare", "--token", token.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(prepared.status == 0, "\(prepared)")

        // The host takes the payment and drops its answer: outcomeUnknown, exit 16, with the orderId.
        let fault = monei.call(
            "POST", "/_sandbox/faults", body: ["match": ["method": "POST", "path": "/v1/pos/payments"], "count": 1, "action": "drop"])
        #expect(fault.status == 201, "\(fault)")
        let lost = try sandbox.tapsim("--json", "monei", "pay", "--amount", "1050", "--order-id", "o-lost")
        #expect(lost.status == 16, "\(lost)")
        #expect(lost.json?[path: "error", "kind"] as? String == "outcomeUnknown", "\(lost)")
        #expect(lost.json?[path: "error", "orderId"] as? String == "o-lost", "\(lost)")
        #expect(lost.stderr.contains("monei.outcomeUnknown"), "\(lost)")

        // A day later on the host's clock the kept token is expired: exit 13.
        _ = monei.advanceClock(24 * 3600 + 1, "the token's day passes")
        let expired = try sandbox.tapsim("--json", "monei", "pay", "--amount", "1050", "--order-id", "o-late")
        #expect(expired.status == 13 && expired.json?[path: "error", "kind"] as? String == "tokenExpired", "\(expired)")

        // A fresh token, and a card screen the customer closes: cancelled, exit 14.
        let fresh = try sandbox.tapsim("--field", "token", "monei", "token").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let cancelled = try sandbox.tapsim("--json", "monei", "pay", "--amount", "1050", "--order-id", "o-c", "--cancel", "--token", fresh)
        #expect(cancelled.status == 14 && cancelled.json?[path: "error", "kind"] as? String == "cancelled", "\(cancelled)")

        // tapsim monei talks to the MONEI host only.
        let wrongRegion = try sandbox.tapsim("--env", "EU", "monei", "token")
        #expect(wrongRegion.status == 2 && wrongRegion.stderr.contains("--env MONEI"), "\(wrongRegion)")
    }
}
