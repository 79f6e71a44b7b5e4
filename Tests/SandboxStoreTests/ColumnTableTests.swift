import SandboxStore
import Testing

@Suite("A record's column table")
struct ColumnTableTests {
    enum Kind: String, Sendable { case sale, refund }

    struct Payment: Equatable, Sendable {
        var id = "", amount = 0, note: String?, kind = Kind.sale, paid = false
        var split: (whole: Int, cents: Int) = (0, 0)

        static func == (a: Payment, b: Payment) -> Bool {
            a.id == b.id && a.amount == b.amount && a.note == b.note && a.kind == b.kind && a.paid == b.paid
                && a.split.whole == b.split.whole && a.split.cents == b.split.cents
        }

        static let table = ColumnTable<Payment>("payments", [
            Column("id", \.id), Column("amount", \.amount), Column("note", \.note), Column("kind", \.kind, unknown: .sale),
            Column("paid", \.paid),
            Column("split", write: { .text("\($0.split.whole).\($0.split.cents)") }, read: { payment, row in
                let parts = (try row["split"] as String).split(separator: ".").compactMap { Int($0) }
                payment.split = (parts[0], parts[1])
            }),
        ])
    }

    private func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE payments(id TEXT PRIMARY KEY, amount INTEGER, note TEXT, kind TEXT, paid INTEGER, split TEXT)")
        return db
    }

    @Test("a record written through the table reads back the same, NULL for nil")
    func roundTrip() throws {
        let db = try database()
        let payment = Payment(id: "p1", amount: 1250, note: nil, kind: .refund, paid: true, split: (12, 50))
        try db.run(Payment.table.insert, Payment.table.values(of: payment))
        let row = try #require(try db.query("SELECT \(Payment.table.list) FROM payments").first)
        #expect(try Payment.table.record(row, from: Payment()) == payment)
        #expect(try db.query("SELECT note IS NULL AS n, kind, split FROM payments")[0].values == [.integer(1), .text("refund"), .text("12.50")])
    }

    @Test("an upsert changes every column but the key; text no case has reads as the fallback")
    func upsertAndUnknownCase() throws {
        let db = try database()
        var payment = Payment(id: "p1", amount: 100, note: "first")
        try db.run(Payment.table.upsert(key: "id"), Payment.table.values(of: payment))
        payment.amount = 200
        payment.note = "second"
        try db.run(Payment.table.upsert(key: "id"), Payment.table.values(of: payment))
        try db.run("UPDATE payments SET kind = 'chargeback'")
        let rows = try db.query("SELECT \(Payment.table.list) FROM payments")
        #expect(rows.count == 1)
        let read = try Payment.table.record(rows[0], from: Payment())
        #expect(read.amount == 200 && read.note == "second" && read.kind == .sale)
    }

    @Test("a column the row lacks is an error, not a silent default")
    func missingColumn() throws {
        let db = try database()
        try db.run(Payment.table.insert, Payment.table.values(of: Payment(id: "p1")))
        let row = try #require(try db.query("SELECT id, amount FROM payments").first)
        #expect(throws: DatabaseError.self) { try Payment.table.record(row, from: Payment()) }
    }
}
