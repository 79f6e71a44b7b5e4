import CommandLineSupport
import Foundation

/// The `--header 'Name: value'` options of a command line, which may repeat.
///
/// `CommandDescription.parse` keeps the last value of a repeated option, so the headers are taken
/// out of the arguments first and the rest is parsed as usual. A repeated header name keeps its
/// values joined by ", ", as an HTTP server hands them to an application.
struct HeaderArguments {
    var headers: [String: String] = [:]
    /// The arguments without the `--header` options.
    var remaining: [String] = []

    /// Splits `arguments` into the headers and the rest.
    ///
    /// - Parameter description: The command's options: the value of any other option is skipped,
    ///   so `--secret --header` reads "--header" as the secret.
    /// - Throws: `UsageError` for a `--header` without a value or without a colon.
    init(_ arguments: [String], description: CommandDescription) throws(UsageError) {
        let valueOptions = Set(description.options.filter { $0.placeholder != nil && $0.name != "header" }.map { "--" + $0.name })
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--header" {
                guard index < arguments.count else { throw UsageError("--header needs a value ('Name: value')") }
                try add(arguments[index])
                index += 1
            } else if argument.hasPrefix("--header=") {
                try add(String(argument.dropFirst("--header=".count)))
            } else {
                remaining.append(argument)
                if valueOptions.contains(argument), index < arguments.count {
                    remaining.append(arguments[index])
                    index += 1
                }
            }
        }
    }

    /// Adds the lines of a header file: `Name: value` per line; blank lines, `#` comments and an
    /// HTTP request or status line (`POST /hook HTTP/1.1`, `HTTP/1.1 200 OK`) are skipped, so a
    /// dump such as `curl -D` writes can be passed as it is.
    mutating func addFile(_ path: String) throws(UsageError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("--headers-file: cannot read \(path)") }
        let text = String(decoding: data, as: UTF8.self)
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("HTTP/") || line.hasSuffix(" HTTP/1.1")
                || line.hasSuffix(" HTTP/1.0") || line.hasSuffix(" HTTP/2")
            {
                continue
            }
            do {
                try add(line)
            } catch {
                throw UsageError("--headers-file \(path): \(error.description.replacingOccurrences(of: "--header ", with: "line "))")
            }
        }
    }

    private mutating func add(_ text: String) throws(UsageError) {
        guard let colon = text.firstIndex(of: ":") else {
            throw UsageError("--header '\(text)' must be 'Name: value'")
        }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !name.contains(" ") else { throw UsageError("--header '\(text)' must be 'Name: value'") }
        // Stored under the lowercased name: two spellings of one header are one header.
        let key = name.lowercased()
        if let existing = headers[key] {
            headers[key] = existing + ", " + value
        } else {
            headers[key] = value
        }
    }
}
