import Foundation

/// The magic-amount table of `sandbox-data/magic-amounts.json`: which amounts the simulated
/// issuer declines, asks a PIN for, leaves unanswered or fails.
///
/// As in Worldline's own sandbox testing procedure, one range of amounts is magic and every
/// other amount approves, so an ordinary price (the seed's 11.91 EUR) is never declined by
/// accident. A **base amount** (requested amount minus tip, so a tip never changes the
/// outcome) of *trigger*.XX in the terminal's currency answers ISO response code XX: with the
/// default trigger 42, 42.51 EUR (4251) is declined `51`. XX with a rule gets the rule's
/// outcome; 42.00 approves; any other XX is declined with response code XX
/// (``MagicOutcome/declined(responseCode:)``). The trigger is a whole number of major units,
/// per region or the file's default.
///
/// A currency with more than two decimals counts hundredths of its major unit (42.510 KWD,
/// 42510 minor units, is XX 51; 42511 is not magic). One with fewer than two decimals has no
/// hundredths, so its range is *trigger* × 100 + XX minor units (4251 JPY).
///
/// ```swift
/// let magic = try MagicAmounts.load(contentsOf: data.appending(path: "magic-amounts.json"))
/// let euro = Currency(code: "EUR")!
/// magic.outcome(forBaseAmount: 4251, currency: euro, region: "EU").kind      // .insufficientFunds
/// magic.outcome(forBaseAmount: 1191, currency: euro, region: "EU")           // .approved: outside 42.00–42.99
/// magic.outcome(forBaseAmount: 4233, currency: euro, region: "EU").status    // .DECLINED, response code "33"
/// magic.outcome(requestedAmount: 4451, tipAmount: 200, currency: euro, region: "EU").kind  // .insufficientFunds: base 4251
/// ```
public struct MagicAmounts: Sendable, Equatable {
    /// The trigger amount of every region the file does not name, in major units (42).
    public private(set) var defaultTrigger: Int
    /// Trigger amounts of named regions, in major units, by region id.
    public private(set) var regionTriggers: [String: Int]
    /// The rules in file order; no two share `digits`.
    public private(set) var rules: [Rule]

    /// The file the table lives in, inside the data directory.
    public static let fileName = "magic-amounts.json"

    /// The trigger Worldline's sandbox uses, and the shipped default.
    public static let worldlineTrigger = 42

    /// The triggers a file may give, in major units: above 0, and small enough that the range
    /// stays far from overflowing in any currency's minor units.
    public static let triggerRange = 1...1_000_000

    /// One row of the table.
    public struct Rule: Sendable, Equatable {
        /// Two ASCII digits, `00` to `99`: the XX of *trigger*.XX.
        public var digits: String
        public var outcome: MagicOutcome

        public init(digits: String, outcome: MagicOutcome) {
            self.digits = digits
            self.outcome = outcome
        }
    }

    /// A table of rules, unchecked; use ``load(contentsOf:)`` or ``decode(_:file:)`` for files.
    public init(defaultTrigger: Int = worldlineTrigger, regionTriggers: [String: Int] = [:], rules: [Rule]) {
        self.defaultTrigger = defaultTrigger
        self.regionTriggers = regionTriggers
        self.rules = rules
    }

    /// The trigger amount of a region, in major units of its currency.
    public func trigger(region: String) -> Int {
        regionTriggers[region] ?? defaultTrigger
    }

    /// The XX of a base amount that is *trigger*.XX in a currency, or nil for every other amount.
    ///
    /// - Parameters:
    ///   - baseAmount: minor units.
    ///   - trigger: whole major units.
    ///   - exponent: the currency's ISO 4217 minor-unit exponent.
    /// - Returns: two digits, `"00"` to `"99"`.
    public static func responseDigits(of baseAmount: Int, trigger: Int, exponent: Int) -> String? {
        // One hundredth of the major unit in minor units, and where the range starts.
        let step = exponent >= 2 ? power(10, exponent - 2) : 1
        let start = trigger * 100 * step
        let (offset, overflow) = baseAmount.subtractingReportingOverflow(start)
        guard !overflow, offset >= 0, offset < 100 * step, offset % step == 0 else { return nil }
        let digits = offset / step
        return digits < 10 ? "0\(digits)" : "\(digits)"
    }

    private static func power(_ base: Int, _ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { value, _ in value * base }
    }

    /// The outcome for a base amount in minor units of the terminal's currency.
    ///
    /// - Parameters:
    ///   - baseAmount: the requested amount minus the tip.
    ///   - currency: the terminal's currency, whose exponent places the range.
    ///   - region: the host's region, whose trigger applies.
    /// - Returns: the rule of XX for *trigger*.XX; ``MagicOutcome/approved`` for 42.00 without a
    ///   rule and for every amount outside the range; otherwise a decline with response code XX.
    public func outcome(forBaseAmount baseAmount: Int, currency: Currency, region: String) -> MagicOutcome {
        guard let digits = Self.responseDigits(of: baseAmount, trigger: trigger(region: region), exponent: currency.exponent)
        else { return .approved }
        if let rule = rules.first(where: { $0.digits == digits }) { return rule.outcome }
        return digits == "00" ? .approved : .declined(responseCode: digits)
    }

    /// The outcome for a sale's amounts: the tip is taken off first.
    public func outcome(requestedAmount: Int, tipAmount: Int?, currency: Currency, region: String) -> MagicOutcome {
        outcome(forBaseAmount: requestedAmount - (tipAmount ?? 0), currency: currency, region: region)
    }

    /// Checks that every region the file gives a trigger to is one the hosts serve, so a
    /// misspelt region id is reported instead of leaving that region at the default.
    ///
    /// - Parameter regions: the region ids of `environments.json`.
    /// - Throws: ``CatalogueError`` `.invalid` at `triggerAmounts.<id>`.
    public func requireRegions(_ regions: some Sequence<String>, file: String = fileName) throws(CatalogueError) {
        let known = Set(regions)
        if let unknown = regionTriggers.keys.sorted().first(where: { !known.contains($0) }) {
            throw CatalogueError(
                code: .invalid, file: file, path: "triggerAmounts.\(unknown)",
                reason: "\"\(unknown)\" is not a region of environments.json")
        }
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
    ///   unknown field, trigger amounts without `default`, a key that is not a region id or a
    ///   trigger that is not a whole number from 1 to 1,000,000, digits that are not two digits or
    ///   appear twice, an unknown outcome, a status other than the outcome's, a response code
    ///   that is not two letters or digits, or an empty message.
    public static func decode(_ data: Data, file: String) throws(CatalogueError) -> MagicAmounts {
        try DataFile.decode(MagicAmounts.self, from: data, file: file)
    }
}

extension MagicAmounts: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case triggerAmounts, rules
    }

    /// The key of `triggerAmounts` that every region without its own key uses.
    static let defaultKey = "default"

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let triggers = try container.objectDecoder(forKey: .triggerAmounts).container(keyedBy: FieldKey.self)
        var regionTriggers: [String: Int] = [:]
        var defaultTrigger: Int?
        // Name order, so the first problem reported does not depend on the decoder.
        for key in triggers.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            let name = key.stringValue
            guard name == Self.defaultKey || Self.isRegionID(name) else {
                throw DecodingError.invalid(
                    "\"\(name)\" is neither \"default\" nor a region id (upper-case letters, digits and _)",
                    at: triggers.codingPath + [key])
            }
            let trigger = try triggers.decodeWholeNumber(forKey: key)
            guard Self.triggerRange.contains(trigger) else {
                throw DecodingError.invalid(
                    "must be a whole number of major units from 1 to 1000000 (42 for 42.XX), not \(trigger)",
                    at: triggers.codingPath + [key])
            }
            if name == Self.defaultKey { defaultTrigger = trigger } else { regionTriggers[name] = trigger }
        }
        guard let defaultTrigger else {
            throw DecodingError.keyNotFound(
                FieldKey(stringValue: Self.defaultKey), .init(codingPath: triggers.codingPath, debugDescription: "missing"))
        }
        self.defaultTrigger = defaultTrigger
        self.regionTriggers = regionTriggers
        rules = try container.decodeObjects(forKey: .rules) { element, _ in try Rule(from: element) }
        for (index, rule) in rules.enumerated() where rules[..<index].contains(where: { $0.digits == rule.digits }) {
            throw DecodingError.invalid(
                "digits \"\(rule.digits)\" already have a rule",
                at: decoder.codingPath + [CodingKeys.rules, FieldKey(intValue: index), Rule.CodingKeys.digits])
        }
    }

    static func isRegionID(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy { $0.isASCII && (("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_") }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var triggers = container.nestedContainer(keyedBy: FieldKey.self, forKey: .triggerAmounts)
        try triggers.encode(defaultTrigger, forKey: FieldKey(stringValue: Self.defaultKey))
        for (region, trigger) in regionTriggers.sorted(by: { $0.key < $1.key }) {
            try triggers.encode(trigger, forKey: FieldKey(stringValue: region))
        }
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
                debugDescription: "\"\(digits)\" is not two digits (the XX of a trigger amount 42.XX, e.g. \"51\")")
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
