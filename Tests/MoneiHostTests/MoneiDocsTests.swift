import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

/// docs/monei.md's journey, run as a reader pastes it: its `sh` block, in the checkout, against a
/// whole sandbox in this process (its ports put where the doc says 8112 and 8111).
@Suite("docs/monei.md", .blocksThreads)
struct MoneiDocsTests {
    static func journey() throws -> String {
        let text = try String(contentsOf: Paths.repository.appendingPathComponent("docs/monei.md"), encoding: .utf8)
        let start = try #require(text.range(of: "## The journey"), "docs/monei.md has no journey")
        let rest = text[start.upperBound...]
        let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        let block = try #require(section.range(of: "```sh\n"), "no sh block in the journey")
        let end = try #require(section[block.upperBound...].range(of: "\n```"))
        return String(section[block.upperBound..<end.lowerBound])
    }

    @Test("the journey runs as written: token, prepare, tap and pay, the callback verified by MONEI's library, reconciled, refunded")
    func journeyRunsAsWritten() throws {
        let sandbox = try InProcessSandbox(regions: ["MONEI"])
        defer { sandbox.stop() }
        let monei = try sandbox.url(of: "MONEI")
        let inbox = sandbox.sandbox.inbox.url
        let script = try Self.journey()
            .replacingOccurrences(of: "http://127.0.0.1:8112", with: monei)
            .replacingOccurrences(of: "http://127.0.0.1:8111", with: inbox)
        #expect(script != (try Self.journey()), "the journey names the default ports")
        let finished = try SpawnedProcess.run(
            URL(fileURLWithPath: "/bin/bash"), ["-e", "-c", script], in: Paths.repository, timeout: 60)
        #expect(finished.status == 0 && !finished.timedOut, "\(script)\n\(finished)")
        let lines = finished.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "MONEI-T0101", "\(finished)")
        let id = try #require(lines.first { $0.hasPrefix("payment: ") }?.dropFirst("payment: ".count), "\(finished)")
        #expect(lines.contains("verified: \(id) SUCCEEDED E000"), "\(finished)")
        #expect(lines.contains("reconciled: SUCCEEDED"), "\(finished)")
        #expect(lines.last == "PARTIALLY_REFUNDED", "\(finished)")
    }
}
