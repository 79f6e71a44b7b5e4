import Foundation
import SandboxTestSupport
import Testing

/// Every example of `webhooks … --help` and of docs/webhooks.md's "The `webhooks` tool" block, run through
/// bash as a user pastes them: in one folder, in order (the sign examples write the `event.json` and
/// `headers.txt` that the verify examples read), with a real `sandbox up` for `trigger`.
@Suite("webhooks examples", .blocksThreads)
struct ExampleTests {
    /// The example lines of `webhooks COMMAND --help`.
    static func helpExamples(_ command: String) throws -> [String] {
        let help = try webhooks([command, "--help"]).stdout
        guard let start = help.range(of: "EXAMPLES:\n") else { return [] }
        return help[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("  ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The commands of docs/webhooks.md's `webhooks` block: comments dropped, continued lines joined.
    static func readmeExamples() throws -> [String] {
        let readme = try String(contentsOf: Paths.repository.appendingPathComponent("docs/webhooks.md"), encoding: .utf8)
        let heading = try #require(readme.range(of: "## The `webhooks` tool\n\n```sh\n"))
        let end = try #require(readme.range(of: "\n```", range: heading.upperBound..<readme.endIndex))
        var commands: [String] = []
        var pending = ""
        for line in readme[heading.upperBound..<end.lowerBound].split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
            } else {
                commands.append(pending + line)
                pending = ""
            }
        }
        return commands
    }

    @Test("every example runs as written and succeeds", .timeLimit(.minutes(3)))
    func examplesRun() throws {
        var examples: [String] = []
        for command in ["sign", "verify", "listen", "trigger"] {
            let lines = try Self.helpExamples(command)
            #expect(!lines.isEmpty, "webhooks \(command) --help has no examples")
            examples += lines
        }
        examples += try Self.readmeExamples()

        // A sandbox whose endpoints.json is where `trigger` looks by default: ./.sandbox.
        let folder = TemporaryDirectory()
        let (sandbox, _) = try startSandboxUp(dataDirectory: folder.file(".sandbox"))
        defer {
            sandbox.signal(SIGTERM)
            _ = sandbox.finish(within: 10)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = Paths.products.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["WEBHOOKS_SECRET"] = nil

        for example in examples {
            // A listener runs until Ctrl-C: it passes when it is listening, and stops on SIGTERM.
            let listens = example.hasPrefix("webhooks listen") && !example.contains("--dry-run")
            let output = folder.file("out"), errors = folder.file("err")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            let process = try SpawnedProcess(
                executable: "/bin/bash", arguments: ["-c", listens ? "exec " + example : example], environment: environment,
                directory: folder.url.path, stdout: output.path, stderr: errors.path)
            func text(_ file: URL) -> String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }
            if listens {
                _ = eventuallyBlocking(15) { !process.isRunning || text(output).contains("listening on") }
                #expect(text(output).contains("listening on"), "\(example)\n\(text(output))\n\(text(errors))")
                kill(process.pid, SIGTERM)
            }
            #expect(process.finish(within: 20), "\(example) did not end")
            #expect(process.terminationStatus == 0, "\(example): exit \(process.terminationStatus)\n\(text(output))\n\(text(errors))")
            if example.hasPrefix("webhooks verify") {
                #expect(text(output).hasPrefix("valid: "), "\(example)\n\(text(output))\n\(text(errors))")
            }
            if example.hasPrefix("webhooks trigger") && !example.contains("--dry-run") {
                #expect(text(output).hasPrefix("evt_"), "\(example)\n\(text(output))\n\(text(errors))")
            }
        }
    }
}
