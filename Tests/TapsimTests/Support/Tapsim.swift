import Foundation
import HostTestSupport
import Launcher
import SandboxTestSupport
import Testing

// Runs the real, built `tapsim` the way a user does, against the whole sandbox started in this
// process on ports the system picks.

/// The built `tapsim`, or a failed requirement saying how to build it.
func tapsimExecutable(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    try builtExecutable("tapsim", sourceLocation: sourceLocation)
}

/// Runs `executable` with `arguments` in `directory` (TestSupport's `SpawnedProcess.run`), without
/// `TAPSANDBOX_HOME`: the children find sandbox-data only where a test says (or beside the
/// executable). A run still going after `timeout` seconds is stopped and recorded as an issue.
func run(
    _ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:],
    timeout: TimeInterval = 30
) throws -> ProcessOutput {
    var childEnvironment = ProcessInfo.processInfo.environment
    childEnvironment["TAPSANDBOX_HOME"] = nil
    for (key, value) in environment { childEnvironment[key] = value }
    let output = try SpawnedProcess.run(executable, arguments, in: directory, environment: childEnvironment, timeout: timeout)
    if output.timedOut {
        Issue.record("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
    }
    return output
}

/// `sandbox up` in this process (every region, or only `regions`, the portal, the wallet), its
/// `endpoints.json` in its temporary data folder, and a working folder for the `tapsim` runs.
final class SandboxUnderTest {
    let running: InProcessSandbox
    let endpoints: URL
    let tapsim: URL

    init(regions: [String]? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        tapsim = try tapsimExecutable(sourceLocation: sourceLocation)
        running = try InProcessSandbox(regions: regions)
        do {
            endpoints = try running.sandbox.writeEndpoints()
        } catch {
            running.stop()
            throw error
        }
        try FileManager.default.createDirectory(at: folder.file("work"), withIntermediateDirectories: true)
    }

    var folder: TemporaryDirectory { running.directory }
    var sandbox: Sandbox { running.sandbox }

    deinit { sandbox.stop() }

    /// Where the runs happen: `.sandbox/devices/<env>` (the default device folder) lands here.
    var work: URL { folder.file("work") }

    /// The base URL of a region's host.
    func host(_ region: String) throws -> String {
        try #require(sandbox.endpoints.environments[region], "the sandbox runs no host \(region)")
    }

    /// `tapsim --endpoints <ours> --sandbox-data <checkout's> ARGUMENTS…` in the working folder.
    func tapsim(_ arguments: String..., environment: [String: String] = [:]) throws -> ProcessOutput {
        try tapsim(arguments, environment: environment)
    }

    func tapsim(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessOutput {
        try run(
            tapsim, ["--endpoints", endpoints.path, "--sandbox-data", Paths.sandboxData.path] + arguments, in: work,
            environment: environment)
    }
}

extension [String: Any] {
    /// `object["a"]["b"]` for nested JSON objects.
    subscript(path path: String...) -> Any? {
        var value: Any? = self
        for key in path { value = (value as? [String: Any])?[key] }
        return value
    }
}
