import Foundation
import SandboxTestSupport
import Testing

/// The README's five-minute tour, run as a newcomer pastes it: every `sh` block of the tour after
/// `make run`, in order, in the checkout, against a real `sandbox up`.
@Suite("README tour", .blocksThreads)
struct ReadmeTourTests {
    /// The `sh` blocks of the README's "Five-minute tour" section, without their three-space indent.
    static func tourBlocks() throws -> [String] {
        let readme = try String(contentsOf: Paths.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "## Five-minute tour"), "README has no five-minute tour")
        let rest = readme[start.upperBound...]
        let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        var blocks: [String] = []
        var current: [Substring]?
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.drop { $0 == " " }
            if current == nil, text == "```sh" {
                current = []
            } else if current != nil, text == "```" {
                blocks.append(current!.map { $0.hasPrefix("   ") ? $0.dropFirst(3) : $0 }.joined(separator: "\n"))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    @Test("every command of the tour runs as written and answers what the README says", .timeLimit(.minutes(2)))
    func tourRunsAsWritten() throws {
        let blocks = try Self.tourBlocks().filter { !$0.contains("make run") }
        // Steps 2, 4 and 5: health and catalogue, the error envelope, the registration walk.
        try #require(blocks.count == 3, "expected three sh blocks after `make run`, found \(blocks.count):\n\(blocks)")

        let data = TemporaryDirectory()
        let (sandbox, base) = try startSandboxUp(dataDirectory: data.url)
        defer { _ = sandbox.finish(within: 1) }
        // The README's ports are the defaults (8100 + i); this sandbox listens on base + i.
        func onOurPorts(_ block: String) -> String {
            var text = block
            for offset in (0..<12).reversed() {
                text = text.replacingOccurrences(of: "127.0.0.1:\(8100 + offset)", with: "127.0.0.1:\(base + offset)")
            }
            return text
        }

        var outputs: [String] = []
        for (index, block) in blocks.enumerated() {
            let script = data.file("tour-\(index).sh")
            try onOurPorts(block).write(to: script, atomically: true, encoding: .utf8)
            // `-e` as a careful reader would: a command that fails stops the walk.
            let finished = try ChildProcess(
                URL(fileURLWithPath: "/bin/bash"), ["-e", script.path], workingDirectory: Paths.repository
            ).finish(within: 60)
            #expect(finished.exited && finished.status == 0, "tour block \(index + 1) failed:\n\(block)\n\(finished)")
            outputs.append(finished.stdout)
        }

        #expect(outputs[0].contains("\"id\":\"EU\""), "catalogue: \(outputs[0])")
        #expect(outputs[0].contains("openapi: 3"), "openapi.yaml: \(outputs[0])")
        #expect(outputs[1].contains("\"code\":\"method_not_allowed\""), "\(outputs[1])")
        let walk = outputs[2]
        #expect(walk.range(of: #"challenge code: [0-9A-Z]{4}-[0-9A-Z]{4}"#, options: .regularExpression) != nil, "\(walk)")
        #expect(walk.range(of: #"back-office code: EU-[0-9]{6}"#, options: .regularExpression) != nil, "\(walk)")
        #expect(walk.contains("\"terminalId\":\"EU-T0101\""), "\(walk)")
        #expect(walk.contains("\"code\":\"session_expired\""), "\(walk)")
        #expect(walk.hasSuffix("204\n"), "unregister: \(walk)")
    }
}
