import Foundation
import SandboxTestSupport
import Testing

/// docs/testing-your-app.md, run as written: its `sh` blocks, in order, in a folder that plays a
/// checkout whose `make run` is running (`sandbox up` on free ports; the doc's ports moved to them).
@Suite("docs/testing-your-app.md", .blocksThreads)
struct TestingYourAppDocTests {
    @Test("the snapshot journey, the seed, the queued customer and the control calls run as written and answer what the comments say", .timeLimit(.minutes(2)))
    func journeyRunsAsWritten() throws {
        let doc = try String(contentsOf: Paths.repository.appendingPathComponent("docs/testing-your-app.md"), encoding: .utf8)
        var blocks: [String] = []
        var cursor = doc.startIndex
        while let start = doc.range(of: "```sh\n", range: cursor..<doc.endIndex) {
            let end = try #require(doc.range(of: "\n```", range: start.upperBound..<doc.endIndex))
            blocks.append(String(doc[start.upperBound..<end.lowerBound]))
            cursor = end.upperBound
        }
        try #require(blocks.count == 4, "\(blocks)")
        let base = try freeConsecutivePorts(RegionFacts.all.count + 3)
        func ported(_ block: String) -> String {
            block.replacingOccurrences(of: "127.0.0.1:8100", with: "127.0.0.1:\(base)")
                .replacingOccurrences(of: "127.0.0.1:8111", with: "127.0.0.1:\(base + 11)")
        }
        let customer = ported(blocks[2])
        let calls = ported(blocks[3])
        let checkout = TemporaryDirectory()
        let script = """
            sandbox up --base-port \(base) > up.log &
            until [ -s .sandbox/endpoints.json ]; do sleep 0.2; done
            \(blocks[0])
            echo
            \(blocks[1])
            echo
            \(customer)
            echo
            \(calls)
            echo
            tapsim --field count count || echo "count: exit $?"
            kill %1
            wait
            """
        let text = try runExample(script, in: checkout.url, scratch: checkout, environment: ["TAPSANDBOX_HOME": Paths.repository.path])
        let lines = text.split(separator: "\n").map(String.init)
        let counts = lines.filter { $0 == "0" || $0 == "1" }
        #expect(counts == ["1", "0"], "a sale after the save, none after the restore: \(text)")
        #expect(lines.contains { $0.hasPrefix("Saved snapshot 'ready-to-pay' of 14 services in ") }, "\(text)")
        #expect(lines.contains { $0.hasPrefix("Restored snapshot 'ready-to-pay' on 14 services in ") }, "\(text)")
        #expect(lines.contains { $0.hasPrefix("ready-to-pay ") && $0.contains(" 14 of 14 ") }, "the list: \(text)")
        #expect(lines.contains { $0.hasPrefix("Reset 14 services in ") }, "\(text)")
        #expect(text.contains(#"{"bytes":"#) && text.components(separatedBy: #""name":"eu-only""#).count == 3, "saved, then restored: \(text)")
        // The seed after the reset: its device is logged in, its history is the seed's, and it pays at once.
        #expect(lines.contains { $0.hasPrefix("Seeded EU: 1 device (EU-T0101, logged in in ") }, "\(text)")
        #expect(lines.contains("6") && lines.contains { $0.hasPrefix("CLEARED ") && $0.contains("sale 12.50 EUR") }, "\(text)")
        // The queued customer's wrong PIN, then tapsim's own card.
        let statuses = lines.filter { $0 == "DECLINED" || $0 == "CLEARED" }
        #expect(statuses == ["DECLINED", "CLEARED"], "\(text)")
        #expect(lines.last == "9", "the seed's six, the sale, and the two the queued customer and tapsim's card paid: \(text)")
        #expect(!FileManager.default.fileExists(atPath: checkout.file(".sandbox/snapshots/ready-to-pay").path), "deleted")
    }
}
