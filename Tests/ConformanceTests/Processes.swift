import Foundation
import TestSupport

/// A child process whose output goes to a file (no pipe to fill up), ended by `SIGKILL` when it
/// outlives its time or the test.
final class ChildProcess {
    let process: SpawnedProcess
    private let folder = TemporaryDirectory()
    private let outputFile: URL

    /// Starts `executable`; standard output and error go to one file, read with `output`.
    init(_ executable: URL, _ arguments: [String], environment: [String: String], workingDirectory: URL) throws {
        outputFile = folder.file("output")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        process = try SpawnedProcess(
            executable: executable.path, arguments: arguments, environment: environment, directory: workingDirectory.path,
            stdout: outputFile.path, stderr: outputFile.path)
    }

    deinit { stop() }

    var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    /// Waits until the output contains `text`; false when the child ends or time runs out first.
    func waitForOutput(_ text: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if output.contains(text) { return true }
            if !process.isRunning { return output.contains(text) }
            usleep(20_000)
        }
        return false
    }

    /// Waits for the end; nil when it was still running after `seconds` (it is killed then).
    func wait(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else {
            stop()
            return nil
        }
        return process.terminationStatus
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.pid, SIGKILL)
        process.waitUntilExit()
    }
}

/// The environment children get: ours, with `TAPSANDBOX_HOME` at the checkout (so the host
/// reads this tree's `sandbox-data/` and `openapi/`) and without proxies (only 127.0.0.1 is used).
func childEnvironment() -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["TAPSANDBOX_HOME"] = Paths.repository.path
    for name in ["http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"] {
        environment[name] = nil
    }
    environment["NO_PROXY"] = "127.0.0.1,localhost"
    environment["no_proxy"] = "127.0.0.1,localhost"
    return environment
}

/// The first executable called `name` on `PATH`.
func onPath(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
