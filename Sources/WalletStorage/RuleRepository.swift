import SandboxTime
import Foundation
import SandboxStore

/// All SQL about standing rules; the oldest rule first.
package struct RuleRepository {
    package let db: Connection

    package func insert(_ rule: StandingRule) throws {
        try db.run(StandingRule.table.insert, StandingRule.table.values(of: rule))
    }

    package func all() throws -> [StandingRule] {
        try db.query("SELECT \(StandingRule.table.list) FROM rules ORDER BY seq").map(StandingRule.init(row:))
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
