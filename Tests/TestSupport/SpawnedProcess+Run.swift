import Foundation

/// How a child run to its end finished: its exit code and what it wrote.
public struct ProcessOutput: CustomStringConvertible, Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Whether it was still running when its time was up (then it was stopped).
    public var timedOut: Bool

    public var description: String {
        "\(timedOut ? "timed out, " : "")exit \(status)\n--- stdout:\n\(stdout)\n--- stderr:\n\(stderr)"
    }
}

extension SpawnedProcess {
    /// Runs `program` to its end, found on `PATH` as a shell would (through `/usr/bin/env`), with
    /// `environment` added to this process's, `stdin` as its standard input, in a scratch folder.
    ///
    /// ```swift
    /// let checked = try SpawnedProcess.run("python3", ["-c", "import stripe"])
    /// #expect(checked.status == 0, "\(checked)")
    /// ```
    ///
    /// - Parameters:
    ///   - program: An executable's name or path.
    ///   - timeout: Seconds before the child is stopped and the result says `timedOut`.
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String] = [:], stdin: [UInt8] = [],
        timeout: Double = 60
    ) throws -> ProcessOutput {
        let scratch = TemporaryDirectory()
        let input = scratch.file("stdin"), out = scratch.file("stdout"), err = scratch.file("stderr")
        try Data(stdin).write(to: input)
        let child = try SpawnedProcess(
            executable: "/usr/bin/env", arguments: [program] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, directory: scratch.url.path,
            stdin: input.path, stdout: out.path, stderr: err.path)
        let finished = child.finish(within: timeout)
        return ProcessOutput(
            status: child.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "", timedOut: !finished)
    }
}
