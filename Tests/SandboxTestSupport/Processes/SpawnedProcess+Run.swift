import Foundation

/// How a child run to its end finished: its exit code and what it wrote.
public struct ProcessOutput: CustomStringConvertible, Sendable {
    /// The exit code, or the number of the signal that ended it.
    public var status: Int32
    /// True when it exited (as opposed to dying of a signal).
    public var exited: Bool
    /// Whether it was still running when its time was up (then it was stopped).
    public var timedOut: Bool
    /// Standard output as written (bytes: a decoder's output need not be text).
    public var standardOutput: [UInt8]
    public var stderr: String

    public var stdout: String { String(decoding: standardOutput, as: UTF8.self) }

    public init(status: Int32, exited: Bool = true, timedOut: Bool = false, standardOutput: [UInt8], stderr: String) {
        self.status = status
        self.exited = exited
        self.timedOut = timedOut
        self.standardOutput = standardOutput
        self.stderr = stderr
    }

    /// Standard output as the one JSON object a `--json` run promises (nil when it is anything else).
    public var json: [String: Any]? {
        let lines = stdout.split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.count == 1 else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(lines[0].utf8))) as? [String: Any]
    }

    public var description: String {
        let how = timedOut ? "timed out" : exited ? "exit \(status)" : "died of signal \(status)"
        return "\(how)\n--- stdout:\n\(stdout)\n--- stderr:\n\(stderr)"
    }
}

extension SpawnedProcess {
    /// Runs `executable` to its end with `environment` (this process's by default), `stdin` as its
    /// standard input, in `directory` (a scratch folder by default); output goes to files, so no
    /// pipe can fill up.
    ///
    /// ```swift
    /// let help = try SpawnedProcess.run(try #require(Paths.executable("sandbox")), ["--help"])
    /// #expect(help.status == 0, "\(help)")
    /// ```
    ///
    /// - Parameter timeout: Seconds before the child is stopped and the result says `timedOut`.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, stdin: [UInt8] = [], timeout: Double = 60
    ) throws -> ProcessOutput {
        let scratch = TemporaryDirectory()
        let input = scratch.file("stdin"), out = scratch.file("stdout"), err = scratch.file("stderr")
        try Data(stdin).write(to: input)
        let child = try SpawnedProcess(
            executable: executable.path, arguments: arguments, environment: environment,
            directory: (directory ?? scratch.url).path, stdin: input.path, stdout: out.path, stderr: err.path)
        let finished = child.finish(within: timeout)
        return ProcessOutput(
            status: child.terminationStatus, exited: child.exited, timedOut: !finished,
            standardOutput: FileManager.default.contents(atPath: out.path).map { [UInt8]($0) } ?? [],
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// Runs `program` to its end, found on `PATH` as a shell would (through `/usr/bin/env`), with
    /// `environment` added to this process's.
    ///
    /// ```swift
    /// let checked = try SpawnedProcess.run("python3", ["-c", "import stripe"])
    /// #expect(checked.status == 0, "\(checked)")
    /// ```
    public static func run(
        _ program: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        stdin: [UInt8] = [], timeout: Double = 60
    ) throws -> ProcessOutput {
        try run(
            URL(fileURLWithPath: "/usr/bin/env"), [program] + arguments, in: directory,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, stdin: stdin, timeout: timeout)
    }
}
