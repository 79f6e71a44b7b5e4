import Foundation

/// The magic-amount table of `sandbox-data/magic-amounts.json`: which amounts the simulated
/// issuer declines, asks a PIN for, leaves unanswered or fails.
///
/// A rule matches the last two minor-unit digits of the **base amount** (requested amount
/// minus tip), so a tip never changes the outcome. Every amount without a rule is approved
/// (``MagicOutcome/approved``).
///
/// ```swift
/// let magic = try MagicAmounts.load(contentsOf: data.appending(path: "magic-amounts.json"))
/// magic.outcome(forBaseAmount: 1051).status                    // .declined, response code "51"
/// magic.outcome(requestedAmount: 1251, tipAmount: 200).kind    // .insufficientFunds: the base is 1051
/// magic.outcome(requestedAmount: 1051, tipAmount: 51).kind     // .approve: the base is 1000
/// magic.outcome(forBaseAmount: 1000) == .approved              // true
/// ```
public struct MagicAmounts: Sendable, Equatable {
    /// The rules in file order; no two share `digits`.
    public private(set) var rules: [Rule]

    /// The file the table lives in, inside the data directory.
    public static let fileName = "magic-amounts.json"

    /// One row of the table.
    public struct Rule: Sendable, Equatable {
        /// Two ASCII digits, `00` to `99`.
        public var digits: String
        public var outcome: MagicOutcome

        public init(digits: String, outcome: MagicOutcome) {
            self.digits = digits
            self.outcome = outcome
        }
    }

    /// A table of rules, unchecked; use ``load(contentsOf:)`` or ``decode(_:file:)`` for files.
    public init(rules: [Rule]) {
        self.rules = rules
    }

    /// The outcome for a base amount in minor units, by its last two digits.
    ///
    /// - Parameter baseAmount: the requested amount minus the tip.
    /// - Returns: the matching rule's outcome, or ``MagicOutcome/approved``.
    public func outcome(forBaseAmount baseAmount: Int) -> MagicOutcome {
        let lastTwo = baseAmount.magnitude % 100
        let digits = lastTwo < 10 ? "0\(lastTwo)" : "\(lastTwo)"
        return rules.first { $0.digits == digits }?.outcome ?? .approved
    }

    /// The outcome for a sale's amounts: the tip is taken off first.
    public func outcome(requestedAmount: Int, tipAmount: Int?) -> MagicOutcome {
        outcome(forBaseAmount: requestedAmount - (tipAmount ?? 0))
    }

    /// Reads and checks a table file.
    ///
    /// - Parameter url: a file URL, normally `sandbox-data/magic-amounts.json`.
    /// - Throws: ``CatalogueError`` naming the file by its last path component: `.unreadable`
    ///   when the file cannot be read, otherwise as ``decode(_:file:)``.
    public static func load(contentsOf url: URL) throws(CatalogueError) -> MagicAmounts {
        try decode(DataFile.read(url), file: url.lastPathComponent)
    }

    /// Checks a table document.
    ///
    /// - Throws: ``CatalogueError`` for the first problem: not JSON, a missing, mistyped or
    ///   unknown field, digits that are not two digits or appear twice, an unknown outcome, a
    ///   status other than the outcome's, a response code that is not two letters or digits,
    ///   or an empty message.
    public static func decode(_ data: Data, file: String) throws(CatalogueError) -> MagicAmounts {
        try DataFile.decode(MagicAmounts.self, from: data, file: file)
    }
}

extension MagicAmounts: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case rules
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rules = try container.decodeObjects(forKey: .rules) { element, _ in try Rule(from: element) }
        for (index, rule) in rules.enumerated() where rules[..<index].contains(where: { $0.digits == rule.digits }) {
            throw DecodingError.invalid(
                "digits \"\(rule.digits)\" already have a rule",
                at: decoder.codingPath + [CodingKeys.rules, FieldKey(intValue: index), Rule.CodingKeys.digits])
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rules, forKey: .rules)
    }
}

extension MagicAmounts.Rule: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case digits, outcome, status, responseCode, responseMessage
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        digits = try container.decode(String.self, forKey: .digits)
        guard digits.utf8.count == 2, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .digits, in: container,
                debugDescription: "\"\(digits)\" is not two digits (the last two of the base amount, e.g. \"51\")")
        }
        let kindName = try container.decode(String.self, forKey: .outcome)
        guard let kind = MagicOutcome.Kind(rawValue: kindName) else {
            let known = MagicOutcome.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                forKey: .outcome, in: container, debugDescription: "\"\(kindName)\" is not an outcome (one of \(known))")
        }
        let statusName = try container.decode(String.self, forKey: .status)
        guard statusName == kind.status.rawValue else {
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: container,
                debugDescription: "must be \(kind.status.rawValue) for outcome \(kind.rawValue), not \"\(statusName)\"")
        }
        let code = try container.decode(String.self, forKey: .responseCode)
        guard code.utf8.count == 2, code.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .responseCode, in: container,
                debugDescription: "\"\(code)\" is not a response code (two letters or digits, e.g. \"51\")")
        }
        let message = try container.decode(String.self, forKey: .responseMessage)
        guard !message.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .responseMessage, in: container, debugDescription: "must not be empty")
        }
        outcome = MagicOutcome(kind: kind, responseCode: code, responseMessage: message)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(digits, forKey: .digits)
        try container.encode(outcome.kind, forKey: .outcome)
        try container.encode(outcome.status, forKey: .status)
        try container.encode(outcome.responseCode, forKey: .responseCode)
        try container.encode(outcome.responseMessage, forKey: .responseMessage)
    }
}
