import WalletStorage
import Foundation
import SandboxWire

/// What `sandbox-data/wallet.json` holds: the secret of each region (the host↔wallet signatures),
/// the amounts that pick an outcome (docs/qr-payments.md, "Amounts that pick an outcome") and the
/// BLIK bank (docs/blik.md).
///
/// Data, not code, so a tester changes a secret or an amount without a build.
public struct WalletData: Sendable, Equatable {
    /// The file's name in `sandbox-data`.
    public static let fileName = "wallet.json"

    /// Region id → shared secret.
    public var secrets: [String: String]
    /// The major-unit amount whose hundredths pick an outcome (43 by default).
    public var defaultTrigger: Int
    /// A region's own trigger, when it has one.
    public var regionTriggers: [String: Int]
    public var rules: [AmountRule]
    /// BLIK: the bank's customers, codes and amounts.
    public var blik: Blik

    /// One `rules` entry: the hundredths after the trigger amount and what the wallet then does.
    public struct AmountRule: Sendable, Equatable, Codable {
        public var digits: String
        public var outcome: RuleAction
        public var reason: APMDeclineReason?
        public var afterSeconds: Double?

        public init(digits: String, outcome: RuleAction, reason: APMDeclineReason? = nil, afterSeconds: Double? = nil) {
            self.digits = digits
            self.outcome = outcome
            self.reason = reason
            self.afterSeconds = afterSeconds
        }
    }

    public init(secrets: [String: String], defaultTrigger: Int = 43, regionTriggers: [String: Int] = [:], rules: [AmountRule] = [], blik: Blik = Blik()) {
        self.secrets = secrets
        self.defaultTrigger = defaultTrigger
        self.regionTriggers = regionTriggers
        self.rules = rules
        self.blik = blik
    }

    public func trigger(region: String) -> Int { regionTriggers[region] ?? defaultTrigger }

    /// Reads and checks the file.
    ///
    /// - Throws: ``WalletDataError`` naming the file and what is wrong with it.
    public static func load(contentsOf url: URL) throws -> WalletData {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw WalletDataError(description: "\(url.path): cannot be read (\(error.localizedDescription))") }
        return try decode(data, file: url.lastPathComponent)
    }

    public static func decode(_ data: Data, file: String = fileName) throws -> WalletData {
        struct File: Decodable {
            package let secrets: [String: String]
            package let triggerAmounts: [String: Int]?
            package let rules: [AmountRule]?
            package let blik: Blik.File?
        }
        let parsed: File
        do { parsed = try JSONDecoder().decode(File.self, from: data) } catch {
            throw WalletDataError(description: "\(file): not a wallet file (\(error))")
        }
        var triggers = parsed.triggerAmounts ?? [:]
        let defaultTrigger = triggers.removeValue(forKey: "default") ?? 43
        for (region, secret) in parsed.secrets where secret.count < 16 {
            throw WalletDataError(description: "\(file): secrets.\(region) must be at least 16 characters")
        }
        var seen = Set<String>()
        for rule in parsed.rules ?? [] {
            guard rule.digits.count == 2, rule.digits.allSatisfy(\.isASCIIDigit) else {
                throw WalletDataError(description: "\(file): rules digits '\(rule.digits)' must be two digits")
            }
            guard seen.insert(rule.digits).inserted else { throw WalletDataError(description: "\(file): rules digits '\(rule.digits)' appear twice") }
            if rule.outcome == .decline, rule.reason == nil {
                throw WalletDataError(description: "\(file): rule \(rule.digits) declines without a reason")
            }
        }
        let blik = try parsed.blik.map { try Blik.decode($0, name: file) } ?? Blik()
        return WalletData(
            secrets: parsed.secrets, defaultTrigger: defaultTrigger, regionTriggers: triggers, rules: parsed.rules ?? [], blik: blik)
    }
}

extension Character {
    package var isASCIIDigit: Bool { isASCII && isNumber }
}
