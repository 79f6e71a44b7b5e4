import CommandLineSupport
import Foundation
import TapOnMobileSandbox

/// What a command answers: its fields for `--json`, and lines for people.
struct Report {
    /// The JSON object's fields after `command`.
    var fields: [(String, JSONValue)]
    /// What a person reads.
    var lines: [String]

    init(_ fields: [(String, JSONValue)], lines: [String]) {
        self.fields = fields
        self.lines = lines
    }
}

/// Where one run of tapsim writes: the process's standard output and error, or, for a run inside
/// another program (the tests), whatever that program collects them in.
public struct TapsimStreams: Sendable {
    let output: @Sendable (String) -> Void
    let error: @Sendable (String) -> Void
    /// Whether the output is a terminal (the progress bar redraws itself there).
    let isTerminal: Bool

    public init(output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, isTerminal: Bool = false) {
        self.output = output
        self.error = error
        self.isTerminal = isTerminal
    }

    /// The process's standard output and error, written at once (no `print` buffering), so that
    /// progress lines, answers and errors come out in the order they happened, also into a pipe.
    public static var standard: TapsimStreams {
        TapsimStreams(
            output: { FileHandle.standardOutput.write(Data($0.utf8)) }, error: { FileHandle.standardError.write(Data($0.utf8)) },
            isTerminal: isatty(STDOUT_FILENO) != 0)
    }
}

/// How a run ends early: the exit code, once its output is written.
struct TapsimExit: Error {
    let code: Int32
}

/// Writes a command's answer: human lines, or exactly one JSON object on standard output.
struct Output {
    /// The streams of the run this task belongs to (``Tapsim/run(_:in:streams:)`` binds them).
    /// A `TaskLocal` value itself rather than the `@TaskLocal` attribute: the attribute is a macro
    /// since Swift 6 and a property wrapper before, and this spelling is the same to both.
    static let currentStreams = TaskLocal(wrappedValue: TapsimStreams.standard)

    static var streams: TapsimStreams { currentStreams.get() }

    let command: String
    let json: Bool
    /// `--field PATH`: only this field of the answer is printed.
    var field: String? = nil

    func success(_ report: Report) throws(TapsimExit) {
        if let field {
            let answer = JSONValue.object(report.fields)
            guard let value = answer.value(at: field) else {
                throw Self.usageFailure(
                    "the answer has no field '\(field)' (its fields: \(answer.keys.joined(separator: ", ")))", name: "tapsim \(command)",
                    json: false)
            }
            Self.write(value.plainText)
        } else if json {
            Self.write(JSONValue.object([("command", .string(command))] + report.fields).text)
        } else {
            for line in report.lines { Self.write(line) }
        }
    }

    /// Prints the failure (JSON on standard output under `--json`, a line on standard error
    /// always) and answers its exit code.
    func failure(_ failure: Failure) -> TapsimExit {
        if json, field == nil {
            Self.write(
                JSONValue.object([("command", .string(command)), ("error", failure.json)] + failure.context).text)
        }
        Self.writeError("tapsim \(command): \(failure.line)")
        return TapsimExit(code: failure.exitCode)
    }

    /// A usage error in CommandMain's format (`NAME: what\nRun 'NAME --help' for usage.`), exit 2.
    static func usageFailure(_ message: String, name: String, json: Bool) -> TapsimExit {
        if json {
            let command = name.hasPrefix("tapsim ") ? String(name.dropFirst("tapsim ".count)) : name
            let error: JSONValue = [
                "category": "usage", "kind": "usage", "code": "usage", "message": .string(message),
                "exitCode": .int(Int(CommandMain.usageExitCode)),
            ]
            write(JSONValue.object([("command", .string(command)), ("error", error)]).text)
        }
        writeError("\(name): \(message)\nRun '\(name) --help' for usage.")
        return TapsimExit(code: CommandMain.usageExitCode)
    }

    /// One line on standard output, at once.
    static func write(_ line: String) {
        streams.output(line + "\n")
    }

    static func writeError(_ line: String) {
        streams.error(line + "\n")
    }
}
