import SandboxStore

/// The sandbox mailbox: the e-mails a host "sends" (registration tokens, receipts).
package struct MailboxRepository {
    package let db: Connection

    /// Keeps a mail; `qr` is text it shows as a QR code, if any.
    package func add(to recipient: String, subject: String, body: String, qr: String? = nil, at now: Int64) throws {
        try db.run(
            "INSERT INTO mailbox (recipient, subject, body, qr, created_at) VALUES (?, ?, ?, ?, ?)",
            [.text(recipient), .text(subject), .text(body), qr.map { .text($0) } ?? .null, .integer(now)])
    }

    /// Every mail, the latest first.
    package func all() throws -> [Mail] {
        try db.query("SELECT * FROM mailbox ORDER BY id DESC").map { row in
            Mail(
                id: Int(try row["id"] as Int64), to: try row["recipient"], subject: try row["subject"], body: try row["body"],
                qrPayload: try row["qr"], createdAt: Wire.time(try row["created_at"]))
        }
    }
}
