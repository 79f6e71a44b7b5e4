import SandboxTime
import Foundation
import SandboxStore

/// All SQL about standing rules; the oldest rule first.
package struct RuleRepository {
    package let db: Connection

    private static let columns = "rule_id, applies_to, region, merchant_id, terminal_id, action, reason, after_seconds, remaining, created_at"

    package func insert(_ rule: StandingRule) throws {
        try db.run(
            "INSERT INTO rules(\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .text(rule.ruleId), .text(rule.appliesTo.rawValue), rule.region.databaseValue, rule.merchantId.databaseValue,
                rule.terminalId.databaseValue, .text(rule.action.rawValue), rule.reason.databaseValue, .real(rule.afterSeconds),
                rule.count.map { .integer(Int64($0)) } ?? .null, .integer(rule.createdAt.millisecondsSince1970),
            ])
    }

    package func all() throws -> [StandingRule] {
        try db.query("SELECT \(Self.columns) FROM rules ORDER BY seq").map { row in
            StandingRule(
                ruleId: try row["rule_id"], appliesTo: StandingRule.Target(rawValue: try row["applies_to"]) ?? .orders,
                region: try row["region"], merchantId: try row["merchant_id"], terminalId: try row["terminal_id"],
                action: RuleAction(rawValue: try row["action"]) ?? .approve, reason: try row["reason"], afterSeconds: try row["after_seconds"],
                count: (try row["remaining"] as Int64?).map(Int.init), createdAt: Date(milliseconds: try row["created_at"]))
        }
    }

    /// Takes one use of the rule: a counted rule is gone after its last.
    package func use(_ rule: StandingRule) throws {
        guard let count = rule.count else { return }
        if count <= 1 {
            try db.run("DELETE FROM rules WHERE rule_id = ?", [.text(rule.ruleId)])
        } else {
            try db.run("UPDATE rules SET remaining = ? WHERE rule_id = ?", [.integer(Int64(count - 1)), .text(rule.ruleId)])
        }
    }

    /// - Returns: whether there was such a rule.
    package func delete(_ ruleId: String) throws -> Bool {
        try db.run("DELETE FROM rules WHERE rule_id = ?", [.text(ruleId)])
        return db.changes > 0
    }

    package func deleteAll() throws {
        try db.run("DELETE FROM rules")
    }
}
