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

/// Writes a command's answer: human lines, or exactly one JSON object on standard output.
///
/// Everything goes through `FileHandle` writes (no `print` buffering), so progress lines,
/// answers and errors come out in the order they happened, also into a pipe.
struct Output {
    let command: String
    let json: Bool
    /// `--field PATH`: only this field of the answer is printed.
    var field: String? = nil

    func success(_ report: Report) {
        if let field {
            let answer = JSONValue.object(report.fields)
            guard let value = answer.value(at: field) else {
                Self.usageFailure(
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
    /// always) and exits with its code.
    func failure(_ failure: Failure) -> Never {
        if json, field == nil {
            Self.write(
                JSONValue.object([("command", .string(command)), ("error", failure.json)] + failure.context).text)
        }
        Self.writeError("tapsim \(command): \(failure.line)")
        exit(failure.exitCode)
    }

    /// A usage error in CommandMain's format (`NAME: what\nRun 'NAME --help' for usage.`), exit 2.
    static func usageFailure(_ message: String, name: String, json: Bool) -> Never {
        if json {
            let command = name.hasPrefix("tapsim ") ? String(name.dropFirst("tapsim ".count)) : name
            let error: JSONValue = [
                "category": "usage", "kind": "usage", "code": "usage", "message": .string(message),
                "exitCode": .int(Int(CommandMain.usageExitCode)),
            ]
            write(JSONValue.object([("command", .string(command)), ("error", error)]).text)
        }
        CommandMain.fail(name, UsageError(message))
    }

    /// One line on standard output, at once.
    static func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func writeError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
