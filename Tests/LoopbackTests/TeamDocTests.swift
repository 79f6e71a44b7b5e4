import Foundation
import SandboxTestSupport
import Testing

/// docs/team.md's example, run as written: two replicas of the EU host on one database of the
/// tests' PostgreSQL server (`$SANDBOX_DATABASE`), on free ports in place of the doc's.
@Suite("docs/team.md", .blocksThreads)
struct TeamDocTests {
    @Test("two replicas on one database: a clock moved through one is in force on the other", .timeLimit(.minutes(1)))
    func replicasRunAsWritten() throws {
        let doc = try String(contentsOf: Paths.repository.appendingPathComponent("docs/team.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "```sh\n"))
        let end = try #require(doc.range(of: "\n```", range: start.upperBound..<doc.endIndex))
        let base = try freeConsecutivePorts(2)
        let folder = TemporaryDirectory()
        let block = String(doc[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "8300", with: String(base)).replacingOccurrences(of: "8301", with: String(base + 1))
            .replacingOccurrences(of: "/tmp/team-", with: folder.url.path + "/team-")
        let text = try runExample(
            block + "\nkill %1 %2\nwait\n", in: folder.url, scratch: folder,
            environment: ["SANDBOX_DATABASE": try PostgresServer.shared().newDatabaseURL()])
        // curl prints each answer without a line break: the clock states one after the other.
        let skews = text.ranges(of: /"skewSeconds":([0-9.]+)/).compactMap { Double(text[$0].split(separator: ":").last ?? "") }
        #expect(skews == [3600, 3600, 0], "moved through one, the same on the other, back to real time: \(text)")
    }
}
