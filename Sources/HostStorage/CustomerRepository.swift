import Foundation
import FastJSON
import SandboxStore
import SandboxWire

/// The scripted customers of each terminal (`/_sandbox/customer`): turns queued by a test, taken
/// in order by the simulated reader.
package struct CustomerRepository {
    package let db: Connection

    package func add(_ turn: CustomerTurn, terminal: String) throws {
        try db.run("INSERT INTO customer_turns (terminal_id, turn) VALUES (?, ?)", [.text(terminal), .text(try Self.json(turn))])
    }

    /// The terminal's queue, the next first.
    package func queue(terminal: String) throws -> [CustomerTurn] {
        try db.query("SELECT turn FROM customer_turns WHERE terminal_id = ? ORDER BY id", [.text(terminal)]).map { row in
            try JSONDecoder().decode(CustomerTurn.self, from: Data((try row["turn"] as String).utf8))
        }
    }

    /// Takes the terminal's next turn out of the queue.
    package func take(terminal: String) throws -> CustomerTurn? {
        guard let row = try db.query(
            "SELECT id, turn FROM customer_turns WHERE terminal_id = ? ORDER BY id LIMIT 1", [.text(terminal)]).first
        else { return nil }
        try db.run("DELETE FROM customer_turns WHERE id = ?", [.integer(try row["id"])])
        return try JSONDecoder().decode(CustomerTurn.self, from: Data((try row["turn"] as String).utf8))
    }

    package func clear(terminal: String) throws {
        try db.run("DELETE FROM customer_turns WHERE terminal_id = ?", [.text(terminal)])
    }

    private static func json(_ turn: CustomerTurn) throws -> String {
        String(decoding: try SortedJSONEncoder.encode(turn), as: UTF8.self)
    }
}
