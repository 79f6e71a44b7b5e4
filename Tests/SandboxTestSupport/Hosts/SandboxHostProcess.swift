import Foundation
import Testing

/// `sandbox-host`, the built executable, as a child serving one region on a port the kernel picks
/// (`--port 0`), its state in `dataDirectory`, output (standard output and error together) in a file.
/// Killed when the value goes away; ``kill()`` is the crash a test may cause on purpose.
public final class SandboxHostProcess: @unchecked Sendable {
    public let child: ChildProcess
    public let port: UInt16
    /// `http://127.0.0.1:<port>`
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Starts the host and waits for its "listening on" line.
    ///
    /// - Parameter arguments: more options (`--access-log FILE`, `--webhook-inbox …`).
    public init(
        region: String = "EU", dataDirectory: URL, arguments: [String] = ["--access-log", "off"],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        child = try ChildProcess(
            builtExecutable("sandbox-host", sourceLocation: sourceLocation),
            ["--env", region, "--port", "0", "--data-dir", dataDirectory.path] + arguments, workingDirectory: dataDirectory,
            combinedOutput: true)
        guard child.waitForOutput("listening on http://", seconds: 20) else {
            child.stop()
            throw HarnessError("sandbox-host did not start:\n\(child.stdout)")
        }
        let output = child.stdout
        guard let range = output.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
            let port = UInt16(output[range].split(separator: ":").last ?? "")
        else { throw HarnessError("sandbox-host did not say where it listens:\n\(output)") }
        self.port = port
    }

    /// Everything it wrote so far.
    public var output: String { child.stdout }

    /// SIGKILL, and waits for the process to be gone.
    public func kill() { child.stop() }
}
