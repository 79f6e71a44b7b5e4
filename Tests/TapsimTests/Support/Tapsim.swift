import Foundation
import Launcher
import TestSupport
import Testing

// Runs the real, built `tapsim` the way a user does, against the whole sandbox started in this
// process on ports the system picks.

/// The built `tapsim`, or a failed requirement saying how to build it.
func tapsimExecutable(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    try #require(
        Paths.executable("tapsim"),
        "tapsim is not built in \(Paths.products.path); run `swift build --build-tests` first",
        sourceLocation: sourceLocation)
}

/// How one run of an executable ended.
struct Run: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output as the one JSON object `--json` promises (nil when it is anything else).
    var json: [String: Any]? {
        let lines = stdout.split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.count == 1 else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(lines[0].utf8))) as? [String: Any]
    }

    var description: String { "exit \(status)\n--- stdout:\n\(stdout)\n--- stderr:\n\(stderr)" }
}

/// Runs `executable` with `arguments` in `directory`, output to files (no pipe can fill up),
/// killing it after `timeout` seconds.
func run(
    _ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:],
    timeout: TimeInterval = 30
) throws -> Run {
    let scratch = TemporaryDirectory()
    let out = scratch.file("stdout")
    let err = scratch.file("stderr")
    FileManager.default.createFile(atPath: out.path, contents: nil)
    FileManager.default.createFile(atPath: err.path, contents: nil)
    var childEnvironment = ProcessInfo.processInfo.environment
    // The children find sandbox-data only where a test says (or beside the executable).
    childEnvironment["TAPSANDBOX_HOME"] = nil
    for (key, value) in environment { childEnvironment[key] = value }
    let process = try SpawnedProcess(
        executable: executable.path, arguments: arguments, environment: childEnvironment, directory: directory.path,
        stdout: out.path, stderr: err.path)
    if !process.finish(within: timeout) {
        Issue.record("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
    }
    return Run(
        status: process.terminationStatus,
        stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
}

/// `sandbox up` in this process (every region, the portal, the wallet), its `endpoints.json` in a
/// temporary data folder, and a working folder for the `tapsim` runs.
final class SandboxUnderTest {
    let folder = TemporaryDirectory()
    let sandbox: Sandbox
    let endpoints: URL
    let tapsim: URL

    init(sourceLocation: SourceLocation = #_sourceLocation) throws {
        tapsim = try tapsimExecutable(sourceLocation: sourceLocation)
        let resources = try Resources.load(sandboxData: Paths.sandboxData, web: Paths.web, openAPI: Paths.openAPI)
        sandbox = try Sandbox.start(
            configuration: Sandbox.Configuration(
                resources: resources, basePort: 0, server: .init(drainSeconds: 0.2), dataDirectory: folder.file("data"),
                flavour: .sandbox, accessLog: nil))
        do {
            endpoints = try sandbox.writeEndpoints()
        } catch {
            sandbox.stop()
            throw error
        }
        try FileManager.default.createDirectory(at: folder.file("work"), withIntermediateDirectories: true)
    }

    deinit { sandbox.stop() }

    /// Where the runs happen: `.sandbox/devices/<env>` (the default device folder) lands here.
    var work: URL { folder.file("work") }

    /// The base URL of a region's host.
    func host(_ region: String) throws -> String {
        try #require(sandbox.endpoints.environments[region], "the sandbox runs no host \(region)")
    }

    /// `tapsim --endpoints <ours> --sandbox-data <checkout's> ARGUMENTS…` in the working folder.
    func tapsim(_ arguments: String..., environment: [String: String] = [:]) throws -> Run {
        try tapsim(arguments, environment: environment)
    }

    func tapsim(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
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
