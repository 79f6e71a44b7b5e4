/// An option declared once, with the type its text is read as: a command lists the keys it
/// takes (their ``Option`` makes its help) and reads each through its key, so a misspelt name or
/// a value read as the wrong type does not compile, and a bad value is refused in one place.
///
/// ```swift
/// let amount = OptionKey.integer("amount", "N", in: 1...999_999, "The total in minor units.")
/// let description = CommandDescription(name: "pay", summary: "Pays.", options: [amount.option])
/// let parsed = try description.parse(["--amount", "1250"])!
/// let total: Int = try parsed.required(amount)   // 1250; "--amount abc" is a UsageError naming --amount
/// ```
/// Something that declares an option: its ``Option`` (name, placeholder, help) for parsing and help.
public protocol OptionDeclaring: Sendable {
    var option: Option { get }
}

public struct OptionKey<Value: Sendable>: OptionDeclaring {
    /// The name, the placeholder (nil: a flag) and the help, as `--help` shows them.
    public let option: Option
    /// What `--name N is required` says of a missing value (the placeholder by default).
    public let missing: String
    private let read: @Sendable (_ text: String) throws(UsageError) -> Value

    public var name: String { option.name }

    /// An option whose text becomes a `Value` through `read`, which throws the ``UsageError`` that
    /// names the option for a bad one.
    public init(
        _ name: String, _ placeholder: String?, _ help: String = "", default defaultValue: String? = nil, missing: String? = nil,
        read: @escaping @Sendable (_ text: String) throws(UsageError) -> Value
    ) {
        option = placeholder.map { placeholder in
            Option.typed(name, placeholder, help, default: defaultValue) { text throws(UsageError) in try read(text) }
        } ?? Option.flag(name, help)
        self.missing = missing ?? placeholder.map { "--\(name) \($0) is required" } ?? "--\(name) is required"
        self.read = read
    }

    /// The same option, with the help one command gives it (and the value it takes when not given).
    public func help(_ text: String, default defaultValue: String? = nil) -> OptionKey {
        OptionKey(option.name, option.placeholder, text, default: defaultValue, missing: missing, read: read)
    }
}

extension OptionKey where Value == String {
    /// Any text (an empty one is refused by the parser).
    public static func text(_ name: String, _ placeholder: String, _ help: String = "") -> OptionKey {
        OptionKey(name, placeholder, help) { $0 }
    }

    /// One of `choices`, compared case-insensitively, read as spelled there.
    public static func choice(_ name: String, _ placeholder: String, from choices: [String], _ help: String = "") -> OptionKey {
        OptionKey(name, placeholder, help) { text throws(UsageError) in
            guard let match = choices.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) else {
                throw UsageError("--\(name) must be one of \(choices.joined(separator: ", ")), not '\(text)'")
            }
            return match
        }
    }
}

extension OptionKey where Value == Bool {
    /// A `--flag` that takes no value: true when given.
    public static func flag(_ name: String, _ help: String = "") -> OptionKey {
        OptionKey(name, nil, help) { _ in true }
    }
}

extension OptionKey where Value == Int {
    /// A whole number within `range`.
    public static func integer(_ name: String, _ placeholder: String, in range: ClosedRange<Int>, _ help: String = "", missing: String? = nil)
        -> OptionKey
    {
        OptionKey(name, placeholder, help, missing: missing) { text throws(UsageError) in
            guard let value = Int(text), range.contains(value) else {
                throw UsageError("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return value
        }
    }
}

extension ParsedArguments {
    /// The value given for `key`, read as its type when it was parsed; nil when it was not given.
    public subscript<Value>(_ key: OptionKey<Value>) -> Value? {
        if let value = typed[key.name] { return value as? Value }
        // An option the command did not declare through its key (a programmer's mistake).
        assert(values[key.name] == nil, "--\(key.name) was parsed without its key: declare the command's option as \(key.name)'s OptionKey")
        return nil
    }

    /// Whether the flag was given.
    public subscript(_ key: OptionKey<Bool>) -> Bool { flags.contains(key.name) }

    /// The value given for `key`, which the command cannot do without.
    ///
    /// - Throws: the key's `missing` message when it was not given.
    public func required<Value>(_ key: OptionKey<Value>) throws(UsageError) -> Value {
        guard let value = self[key] else { throw UsageError(key.missing) }
        return value
    }
}
