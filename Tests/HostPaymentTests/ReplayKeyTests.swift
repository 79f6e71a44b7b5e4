import HostStorage
import CardPayload
@testable import EnvironmentHost
@testable import HostRules
import Foundation
import HostTestSupport
import SandboxStore
import SandboxTestSupport
import Testing

/// A card read clears once, ever, per region: its read id is the replay key, whatever its
/// `readAt`, and a sandbox reset does not forget it (docs/card-payments.md).
@Suite("Card payments: a read id clears once")
struct ReplayKeyTests {
    /// A Visa read with `readId` at `readAt`, sealed for `till` as its reader would.
    static func seal(readId: String, readAt: Int64, for till: Till) throws -> String {
        let read = CardPayload(readId: readId, readAt: readAt, card: try testCard("visa").cardData)
        return try PayloadSealer.seal(read, key: till.readerKey, region: till.region, terminalId: till.id)
    }

    static func newReadId() -> String { UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }

    static func now(_ till: Till) -> Int64 { Int64(((till.clock.now().timeIntervalSince1970 + till.offset) * 1000).rounded()) }

    @Test("the same read id sealed again with a readAt 1 ms (or 1 s) later is card_payload_replayed")
    func resealedReadIsAReplay() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            let l = till.label
            let readId = Self.newReadId()
            let readAt = Self.now(till)
            expectTransaction(
                await till.sale(amount: 1000, payload: try Self.seal(readId: readId, readAt: readAt, for: till)), 201, "CLEARED",
                "\(l) the read")
            for later in [1, 1000] as [Int64] {
                try await till.refused(409, "card_payload_replayed", "the read sealed again \(later) ms later") {
                    await till.sale(amount: 1000, payload: try Self.seal(readId: readId, readAt: readAt + later, for: till))
                }
            }
            // The card step of a waiting sale spends reads the same way.
            let waiting = try #require(expectTransaction(await till.sale(amount: 1000), 201, "NEW", "\(l) a sale waiting").transactionId)
            try await till.refused(409, "card_payload_replayed", "the read sealed again on the card step") {
                await till.card(waiting, payload: try Self.seal(readId: readId, readAt: readAt + 2, for: till))
            }
            // Another read id at the same instant is another read.
            expectTransaction(
                await till.card(waiting, payload: try Self.seal(readId: Self.newReadId(), readAt: readAt, for: till)), 200, "CLEARED",
                "\(l) a new read on the waiting sale")
        }
    }

    @Test("after POST /_sandbox/reset a payload spent before it is still card_payload_replayed")
    func resetKeepsSpentReads() async throws {
        try await withSandbox { sandbox in
            let host = try sandbox.host("EU")
            let before = try await Till.open(host, try host.counter())
            let payload = try Self.seal(readId: Self.newReadId(), readAt: Self.now(before), for: before)
            expectTransaction(await before.sale(amount: 1000, payload: payload), 201, "CLEARED", "\(before.label) the read")
            expectReply(await host.service.call("POST", "/_sandbox/reset"), 204, nil, "\(before.label) reset")
            // The same terminal, registered again after the reset: the old payload was sealed for it.
            let till = try await Till.open(host, try host.counter())
            #expect(till.id == before.id, "the reset freed \(before.id), but the till took \(till.id)")
            await till.refused(409, "card_payload_replayed", "the payload from before the reset") {
                await till.sale(amount: 1000, payload: payload)
            }
            let history = expectReply(await till.history(), 200, nil, "\(till.label) history after the reset")
            #expect(history.int("total") == 0, "\(till.label) the replay made a transaction: \(history)")
        }
    }

    @Test(
        "a schema-10 database that spent one read id twice (two readAts) keeps it spent once, and any reseal is a replay",
        .enabled(if: !InProcessHost.onPostgres, "an old SQLite file"))
    func migrationKeepsOneSpentRowPerReadId() async throws {
        let directory = TemporaryDirectory()
        let readId = Self.newReadId()
        let path = try withSandbox(directory: directory) { sandbox in sandbox.databasePath("EU") }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        do {
            // A database as schema 10 left it, where the old key let the same id be spent twice.
            let db = try SandboxStore.Connection(path: path)
            try Migrator(migrations: HostSchema.migrations.filter { $0.version <= 10 }).migrate(db)
            for (readAt, usedAt) in [(1_790_000_000_000, 1_790_000_000_100), (1_790_000_000_001, 1_790_000_000_200)] as [(Int64, Int64)] {
                try db.run(
                    "INSERT INTO card_reads (read_at, read_id, used_at) VALUES (?1, ?2, ?3)",
                    [.integer(readAt), .text(readId), .integer(usedAt)])
            }
        }
        #expect(try schema(of: path).version == 10, "the file is not a schema-10 database")

        try await withSandbox(directory: directory) { sandbox in
            let host = try sandbox.host("EU")
            let till = try await Till.open(host, try host.counter())
            #expect(try schema(of: path).version >= 11, "the host did not migrate the schema-10 database")
            let db = try SandboxStore.Connection(path: path, access: .readOnly)
            let uses: [Int64] = try db.query("SELECT used_at FROM card_reads WHERE read_id = ?1", [.text(readId)]).map { try $0["used_at"] }
            #expect(uses == [1_790_000_000_100], "rows of \(readId) after the migration: \(uses)")
            try await till.refused(409, "card_payload_replayed", "the read sealed again after the migration") {
                await till.sale(amount: 1000, payload: try Self.seal(readId: readId, readAt: Self.now(till), for: till))
            }
        }
    }
}
