import Foundation
import SandboxStore
import SandboxTime
import SandboxWire

/// A standing rule of the customer API (`/api/rules`): what the wallet does, on its own, with
/// the next orders (or refunds) that match, so CI never needs a page.
///
/// ```json
/// {"terminalId": "EU-T0101", "action": "approve", "afterSeconds": 2}
/// {"action": "decline", "reason": "insufficient_funds", "count": 1}
/// {"appliesTo": "refunds", "action": "decline", "reason": "declined_by_provider"}
/// ```
///
/// The oldest matching rule wins, before the amounts of `wallet.json`; a rule with a `count`
/// is used up after that many orders and then disappears.
public struct StandingRule: Codable, Sendable, Equatable {
    /// What a rule acts on.
    public enum Target: String, Codable, Sendable, CaseIterable {
        /// Orders made by the hosts (every action).
        case orders
        /// Refunds the hosts ask for (`approve` or `decline` only).
        case refunds
    }

    public var ruleId: String
    public var appliesTo: Target
    public var region: String?
    public var merchantId: String?
    public var terminalId: String?
    public var action: RuleAction
    /// For `decline`: an ``APMDeclineReason`` raw value.
    public var reason: String?
    /// After how long on the wallet's clock the action happens.
    public var afterSeconds: Double
    /// How many more orders it applies to; `nil`: until deleted.
    public var count: Int?
    public var createdAt: Date

    package enum CodingKeys: String, CodingKey { case ruleId, appliesTo, region, merchantId, terminalId, action, reason, afterSeconds, count, createdAt }

    public init(
        ruleId: String, appliesTo: Target, region: String?, merchantId: String?, terminalId: String?, action: RuleAction,
        reason: String?, afterSeconds: Double, count: Int?, createdAt: Date
    ) {
        self.ruleId = ruleId
        self.appliesTo = appliesTo
        self.region = region
        self.merchantId = merchantId
        self.terminalId = terminalId
        self.action = action
        self.reason = reason
        self.afterSeconds = afterSeconds
        self.count = count
        self.createdAt = createdAt
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        ruleId = try c.decode(String.self, forKey: .ruleId)
        appliesTo = try c.decode(Target.self, forKey: .appliesTo)
        region = try c.decodeIfPresent(String.self, forKey: .region)
        merchantId = try c.decodeIfPresent(String.self, forKey: .merchantId)
        terminalId = try c.decodeIfPresent(String.self, forKey: .terminalId)
        action = try c.decode(RuleAction.self, forKey: .action)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        afterSeconds = try c.decode(Double.self, forKey: .afterSeconds)
        count = try c.decodeIfPresent(Int.self, forKey: .count)
        guard let created = WireTime.date(from: try c.decode(String.self, forKey: .createdAt)) else {
            throw DecodingError.dataCorruptedError(forKey: .createdAt, in: c, debugDescription: "not a wire time")
        }
        createdAt = created
    }

    /// Every field, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(ruleId, forKey: .ruleId)
        try c.encode(appliesTo, forKey: .appliesTo)
        try c.encode(region, forKey: .region)
        try c.encode(merchantId, forKey: .merchantId)
        try c.encode(terminalId, forKey: .terminalId)
        try c.encode(action, forKey: .action)
        try c.encode(reason, forKey: .reason)
        try c.encode(afterSeconds, forKey: .afterSeconds)
        try c.encode(count, forKey: .count)
        try c.encode(WireTime.string(from: createdAt), forKey: .createdAt)
    }

    /// Whether the rule applies to an order (or a refund of an order) with these ids.
    package func matches(region: String, merchantId: String, terminalId: String) -> Bool {
        (self.region.map { $0 == region } ?? true) && (self.merchantId.map { $0 == merchantId } ?? true)
            && (self.terminalId.map { $0 == terminalId } ?? true)
    }

    /// `POST /api/rules` and a seed's wallet rules: every field but the action may be left out.
    package typealias Draft = WalletSeed.Rule
}

extension StandingRule {
    /// The table `rules`: each column beside the property it holds (`count` is the `remaining` uses).
    package static let table = ColumnTable<StandingRule>("rules", [
        Column("rule_id", \.ruleId), Column("applies_to", \.appliesTo, unknown: .orders), Column("region", \.region),
        Column("merchant_id", \.merchantId), Column("terminal_id", \.terminalId), Column("action", \.action, unknown: .approve),
        Column("reason", \.reason), Column("after_seconds", \.afterSeconds), Column("remaining", \.count),
        Column(
            "created_at", write: { .integer($0.createdAt.millisecondsSince1970) },
            read: { rule, row in rule.createdAt = Date(milliseconds: try row["created_at"]) }),
    ])

    package init(row: Row) throws {
        self = try Self.table.record(row, from: StandingRule(
            ruleId: "", appliesTo: .orders, region: nil, merchantId: nil, terminalId: nil, action: .approve, reason: nil,
            afterSeconds: 0, count: nil, createdAt: Date(timeIntervalSince1970: 0)))
    }
}
