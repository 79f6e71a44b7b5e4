import Foundation

/// A child left running in the background (a service under test), its standard output and error in
/// files so a test can poll them without pipes filling up; killed when it outlives the test.
public final class ChildProcess: @unchecked Sendable {
    public let process: SpawnedProcess
    /// A scratch folder of the child's: its output files, and its working folder unless told one.
    public let folder = TemporaryDirectory()
    private let outputFile: URL
    private let errorFile: URL

    /// Starts `executable` with `environment` (``childEnvironment()`` by default) in `workingDirectory`.
    ///
    /// - Parameters:
    ///   - stdin: the file its standard input reads (`/dev/fd/N` for a pipe of this process's).
    ///   - combinedOutput: standard error goes to the same file as standard output, in the
    ///     order written (``stdout`` then holds both, and ``stderr`` is empty).
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = childEnvironment(),
        stdin: String = "/dev/null", workingDirectory: URL? = nil, combinedOutput: Bool = false
    ) throws {
        outputFile = folder.file("stdout")
        errorFile = combinedOutput ? outputFile : folder.file("stderr")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: folder.file("stderr").path, contents: nil)
        process = try SpawnedProcess(
            executable: executable.path, arguments: arguments, environment: environment,
            directory: (workingDirectory ?? folder.url).path, stdin: stdin, stdout: outputFile.path, stderr: errorFile.path)
    }

    deinit { stop() }

    public var stdout: String { Self.read(outputFile) }
    public var stderr: String { errorFile == outputFile ? "" : Self.read(errorFile) }

    /// A capture file's text; a failed read says why instead of passing for empty output.
    private static func read(_ file: URL) -> String {
        do {
            return try String(contentsOf: file, encoding: .utf8)
        } catch {
            return "(cannot read \(file.lastPathComponent): \(error), errno \(errno) \(String(cString: strerror(errno))))"
        }
    }

    /// Waits until standard output contains `text`; false when the child ends or time runs out first.
    public func waitForOutput(_ text: String, seconds: Double) -> Bool {
        _ = eventuallyBlocking(seconds) { stdout.contains(text) || !process.isRunning }
        return stdout.contains(text)
    }

    public func signal(_ signal: Int32) {
        kill(process.pid, signal)
    }

    /// Waits for the child to end; after `seconds` it is killed and reported as timed out.
    public func finish(within seconds: Double) -> ProcessOutput {
        _ = eventuallyBlocking(seconds) { !process.isRunning }
        let timedOut = process.isRunning
        stop()
        return ProcessOutput(
            status: process.terminationStatus, exited: process.exited, timedOut: timedOut,
            standardOutput: FileManager.default.contents(atPath: outputFile.path).map { [UInt8]($0) } ?? [], stderr: stderr)
    }

    /// Waits for the end; nil when it was still running after `seconds` (it is killed then).
    public func wait(seconds: Double) -> Int32? {
        let output = finish(within: seconds)
        return output.timedOut ? nil : output.status
    }

    /// SIGKILL, and waits for the child to be gone.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.pid, SIGKILL)
        process.waitUntilExit()
    }
}
