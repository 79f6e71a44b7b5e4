import HostStorage
import SandboxStore
import SandboxTestSupport
import Testing

/// The request journal replicas share in their database: each surface keeps its latest entries,
/// trimmed back to the capacity once a tenth more came, not on every append.
@Suite struct SharedJournalTests {
    @Test("a surface holds at most a tenth over the capacity, the latest entries, and is trimmed back to it", arguments: [Connection.Engine.sqlite, .postgres])
    func trimsEveryTenth(engine: Connection.Engine) throws {
        let store: Store = switch engine {
        case .sqlite: try Store.temporary(migrations: HostSchema.migrations)
        case .postgres: try Store.open(postgres: try PostgresServer.shared().newDatabase(), migrations: HostSchema.postgresMigrations)
        }
        let trimming = JournalTrimming()
        func append(_ surface: String, _ id: String) throws {
            let due = trimming.due(adding: [surface], capacity: 100)
            try store.write { db in try db.journal.append([(surface: surface, requestId: id, json: "{}")], capacity: 100, trimming: due) }
            trimming.trimmed(due)
        }
        func count(_ surface: String) throws -> Int64 {
            try store.read { db in try db.query("SELECT count(*) AS n FROM request_journal WHERE surface = ?", [.text(surface)])[0]["n"] }
        }
        for index in 1...5 { try append("merchant", "req_m\(index)") }
        var most: Int64 = 0
        for index in 1...135 {
            try append("terminal", "req_t\(index)")
            most = max(most, try count("terminal"))
        }
        // Trimmed along with every tenth append: 100 after it, 109 before the next.
        #expect(most == 109, "the journal grew to \(most) entries: trimmed on every append (100), late, or never")
        #expect(try count("terminal") == 105, "trimmed back to 100 at the 130th, five since")
        #expect(try count("merchant") == 5, "another surface's entries are not trimmed with it")
        let kept = try store.read { db in try db.query("SELECT request_id FROM request_journal WHERE surface = 'terminal' ORDER BY seq") }
            .map { try $0["request_id"] as String }
        #expect(kept.first == "req_t31" && kept.last == "req_t135", "the oldest went: \(kept.prefix(3)) … \(kept.suffix(3))")
    }
}
