import Foundation
import HostTestSupport
import Launcher
import SandboxTestSupport
import Synchronization
import TapsimCLI
import Testing

// Runs tapsim's commands against the whole sandbox started in this process on ports the system
// picks: in this process too (TapsimCLI, the library the executable is one call into), or as the
// real, built executable for the tests that exist to check it (its help, exit codes, shell examples).

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
/// `endpoints.json` in its temporary data folder, and a working folder for the `tapsim` runs:
/// in this process (``tapsim(_:)-swift.method``), or the built executable's (``tapsimProcess(_:environment:)``).
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

    /// Where the runs happen (the working folder of every `tapsim` run).
    var work: URL { folder.file("work") }

    /// The default device folders: `devices/<env>` beside the `endpoints.json` the runs name.
    var devices: URL { endpoints.deletingLastPathComponent().appendingPathComponent("devices", isDirectory: true) }

    /// The base URL of a region's host.
    func host(_ region: String) throws -> String {
        try #require(sandbox.endpoints.environments[region], "the sandbox runs no host \(region)")
    }

    /// `tapsim --endpoints <ours> --sandbox-data <checkout's> ARGUMENTS…` in the working folder, in this process.
    func tapsim(_ arguments: String...) throws -> ProcessOutput {
        try tapsim(arguments)
    }

    func tapsim(_ arguments: [String]) throws -> ProcessOutput {
        runInProcess(["--endpoints", endpoints.path, "--sandbox-data", Paths.sandboxData.path] + arguments, in: work)
    }

    /// The same, run by the built executable in a process of its own, with `environment` added to this one's.
    func tapsimProcess(_ arguments: String..., environment: [String: String] = [:]) throws -> ProcessOutput {
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
