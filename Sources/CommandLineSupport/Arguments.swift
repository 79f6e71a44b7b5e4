/// One option an executable accepts: `--name VALUE` (or `--name=VALUE`), or a `--flag`.
public struct Option: Sendable {
    public let name: String
    /// The placeholder shown in help (`REGION`); nil for a flag that takes no value.
    public let placeholder: String?
    public let help: String
    public let defaultValue: String?
    /// How the parser reads the value as its type (an ``OptionKey``'s); nil: kept as text.
    let read: (@Sendable (String) throws(UsageError) -> any Sendable)?

    public static func value(_ name: String, _ placeholder: String, _ help: String, default defaultValue: String? = nil) -> Option {
        Option(name: name, placeholder: placeholder, help: help, defaultValue: defaultValue, read: nil)
    }

    public static func flag(_ name: String, _ help: String) -> Option {
        Option(name: name, placeholder: nil, help: help, defaultValue: nil, read: nil)
    }

    /// A value option read as its type by `read`, when it is parsed.
    static func typed(
        _ name: String, _ placeholder: String, _ help: String, default defaultValue: String? = nil,
        read: @escaping @Sendable (String) throws(UsageError) -> any Sendable
    ) -> Option {
        Option(name: name, placeholder: placeholder, help: help, defaultValue: defaultValue, read: read)
    }
}

/// What an executable (or one of its subcommands) is called, does and accepts; its `--help` is
/// generated from this, nothing else.
public struct CommandDescription: Sendable {
    public let name: String
    public let summary: String
    public let options: [Option]
    /// Lines shown under "Examples:" in help.
    public let examples: [String]
    /// Lines shown under "Files:" in help: where the command finds what it reads.
    public let files: [String]
    /// The bare argument it takes, as the usage line shows it (`TRANSACTION_ID`); nil: options only.
    public let operand: String?
    /// Its subcommands (name, summary), listed before the options: the usage line then names a COMMAND.
    public let commands: [(name: String, summary: String)]
    /// Paragraphs after everything else.
    public let epilogue: [String]

    public init(
        name: String, summary: String, options: [Option], files: [String] = [], examples: [String] = [], operand: String? = nil,
        commands: [(name: String, summary: String)] = [], epilogue: [String] = []
    ) {
        self.name = name
        self.summary = summary
        self.options = options + [.flag("help", "Show this help and exit.")]
        self.examples = examples
        self.files = files
        self.operand = operand
        self.commands = commands
        self.epilogue = epilogue
    }

    /// The text `--help` prints.
    public var help: String {
        let usage = commands.isEmpty ? "USAGE: \(name) [options]" + (operand.map { " \($0)" } ?? "") : "USAGE: \(name) [options] COMMAND [command options]"
        var lines = [usage, "", summary, ""]
        if !commands.isEmpty {
            let width = (commands.map(\.name.count).max() ?? 0) + 2
            lines += ["COMMANDS:"] + commands.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.summary } + [""]
        }
        lines.append("OPTIONS:")
        let labels = options.map { option in "--\(option.name)" + (option.placeholder.map { " \($0)" } ?? "") }
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (option, label) in zip(options, labels) {
            var line = "  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + option.help
            if let defaultValue = option.defaultValue { line += " (default: \(defaultValue))" }
            lines.append(line)
        }
        if !files.isEmpty {
            lines += ["", "FILES:"] + files.map { "  " + $0 }
        }
        if !examples.isEmpty {
            lines += ["", "EXAMPLES:"] + examples.map { "  " + $0 }
        }
        if !epilogue.isEmpty {
            lines += [""] + epilogue
        }
        return lines.joined(separator: "\n")
    }

    /// Reads `arguments` (without the executable name).
    ///
    /// - Returns: nil when `--help` was asked for.
    /// - Throws: `UsageError` for an unknown option, a missing value or a stray argument.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments? {
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw UsageError("unexpected argument '\(argument)'")
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            guard let option = options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '--\(name)'")
            }
            if option.name == "help" {
                guard inline == nil else { throw UsageError("--help takes no value") }
                return nil
            }
            if option.placeholder == nil {
                guard inline == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.endIndex else { throw UsageError("--\(name) needs a value (\(option.placeholder!))") }
                    value = arguments[index]
                    index += 1
                }
                // An empty value (`--transaction ""`, an unset shell variable) names nothing: say so
                // here rather than send it and get an answer about something else.
                guard !value.isEmpty else { throw UsageError("--\(name) needs a value (\(option.placeholder!)), not an empty one") }
                values[name] = value
            }
        }
        for option in options where values[option.name] == nil {
            if let defaultValue = option.defaultValue { values[option.name] = defaultValue }
        }
        return try ParsedArguments(values: values, flags: flags, options: options)
    }
}

/// Parsed options with typed, validated accessors that throw `UsageError` naming the option.
public struct ParsedArguments: Sendable {
    let values: [String: String]
    let flags: Set<String>
    /// The values of typed options (``OptionKey``), read once, when parsed.
    let typed: [String: any Sendable]

    /// `values` and `flags` as given; every typed option's value read now, so a bad one is refused
    /// before the command does anything.
    public init(values: [String: String], flags: Set<String>, options: [Option]) throws(UsageError) {
        self.values = values
        self.flags = flags
        var typed: [String: any Sendable] = [:]
        for option in options {
            guard let read = option.read, let text = values[option.name] else { continue }
            typed[option.name] = try read(text)
        }
        self.typed = typed
    }

    public func string(_ name: String) -> String? { values[name] }

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// A TCP port, 0 to 65535 (0: the system chooses).
    public func port(_ name: String) throws(UsageError) -> UInt16? {
        guard let text = values[name] else { return nil }
        guard let port = UInt16(text) else {
            throw UsageError("--\(name) must be a port number from 0 to 65535, not '\(text)'")
        }
        return port
    }

    public func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// One of a fixed set of words, compared case-insensitively, returned as spelled in `choices`.
    public func choice(_ name: String, from choices: [String]) throws(UsageError) -> String? {
        guard let text = values[name] else { return nil }
        guard let match = choices.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) else {
            throw UsageError("--\(name) must be one of \(choices.joined(separator: ", ")), not '\(text)'")
        }
        return match
    }

    /// An IPv4 address to bind.
    public func ipv4(_ name: String) throws(UsageError) -> String? {
        guard let text = values[name] else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil && ($0.count == 1 || !$0.hasPrefix("0")) }) else {
            throw UsageError("--\(name) must be an IPv4 address such as 127.0.0.1 or 0.0.0.0, not '\(text)'")
        }
        return text
    }
}

/// A mistake in how an executable was called: printed with a pointer to `--help`, exit code 2.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
