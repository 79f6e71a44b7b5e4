import Foundation
import SandboxTestSupport
import Testing

@Suite("scripts/tapsim-walk.sh", .blocksThreads)
struct WalkScriptTests {
    /// The issue's "done when": the script walks EU and MBANK with `tapsim --json`, curl and
    /// python3, run as the README writes it: no options, from a folder where `sandbox up` wrote
    /// `.sandbox/endpoints.json`, with `tapsim` on the PATH.
    @Test("run as written, walks both regions against the sandbox and leaves every terminal free")
    func walk() throws {
        let sandbox = try SandboxUnderTest()
        let layout = try HelpExamplesTests.Layout(sandbox)
        // A deadline, not a timing: a loaded machine runs the walk's 60-odd invocations slowly.
        let result = try layout.bash("'\(Paths.repository.path)/scripts/tapsim-walk.sh'", timeout: 300)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("== EU at "), "\(result)")
        #expect(result.stdout.contains("== MBANK at "), "\(result)")
        #expect(result.stdout.contains("tapsim walk passed"), "\(result)")
        for region in ["EU", "MBANK"] {
            let taken = try backOfficeTerminals(sandbox, region).filter(\.value).keys.sorted()
            #expect(taken.isEmpty, "\(region) terminals still registered after the walk: \(taken)")
        }
    }

    @Test("stops with exit 1 at the first unexpected answer")
    func failsLoudly() throws {
        let sandbox = try SandboxUnderTest()
        // A tapsim that answers every refund with a decline.
        let fake = sandbox.folder.file("tapsim")
        try """
            #!/bin/bash
            for a in "$@"; do [ "$a" = refund ] && { echo '{"command":"refund","transaction":{"transactionStatus":"DECLINED"}}'; exit 0; }; done
            exec '\(sandbox.tapsim.path)' "$@"
            """.write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let result = try run(
            URL(fileURLWithPath: "/bin/bash"),
            [
                Paths.repository.appendingPathComponent("scripts/tapsim-walk.sh").path, "--env", "EU", "--endpoints",
                sandbox.endpoints.path, "--tapsim", fake.path, "--sandbox-data", Paths.sandboxData.path,
            ], in: sandbox.work, timeout: 60)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("FAILED: the refund is CLEARED"), "\(result)")
        #expect(!result.stdout.contains("tapsim walk passed"))
        // Its devices were unregistered on the way out.
        #expect(try backOfficeTerminals(sandbox, "EU").values.allSatisfy { !$0 })
    }
}
