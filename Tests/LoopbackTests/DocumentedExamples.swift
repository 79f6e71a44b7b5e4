import Foundation
import SandboxTestSupport
import Testing

/// Runs a documented shell example with `bash -e` in `directory`, the built executables first on
/// the PATH and no control key from the environment; its standard output, once it ended well.
func runExample(
    _ script: String, in directory: URL, scratch: TemporaryDirectory, environment extra: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = Paths.products.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["SANDBOX_CONTROL_KEY"] = nil
    environment.merge(extra) { $1 }
    let output = scratch.file("out"), errors = scratch.file("err")
    let process = try SpawnedProcess(
        // A failing line ends the script at once (-e): whatever it started in the background (a
        // `sandbox up &`) is stopped with it, not left running after the test.
        executable: "/bin/bash", arguments: ["-e", "-c", "trap 'for job in $(jobs -p); do kill $job 2>/dev/null || true; done' EXIT\n" + script], environment: environment,
        directory: directory.path,
        stdout: output.path, stderr: errors.path)
    #expect(process.finish(within: 60), "the example did not end", sourceLocation: sourceLocation)
    let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    #expect(
        process.terminationStatus == 0, "\(text)\n\((try? String(contentsOf: errors, encoding: .utf8)) ?? "")", sourceLocation: sourceLocation)
    return text
}
