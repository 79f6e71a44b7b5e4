import SandboxStore

/// The webhook outbox (`webhook_events`), its delivery log (`webhook_attempts`) and the
/// merchants' endpoint settings (`webhook_endpoints`).
package struct WebhookRepository {
    package let db: Connection

    // MARK: - Endpoints

    /// A merchant's endpoint settings; `disabled` once a receiver answered 410.
    package func endpoint(merchant: String) throws -> WebhookEndpoint? {
        try db.query("SELECT * FROM webhook_endpoints WHERE merchant_id = ?", [.text(merchant)]).first.map { row in
            WebhookEndpoint(
                url: try row["url"], scheme: try row["scheme"], secret: try row["secret"], disabled: (try row["disabled_at"] as Int64?) != nil,
                previousSecret: try row["previous_secret"], previousSecretExpiresAt: try row["previous_secret_expires_at"])
        }
    }

    /// A merchant's first settings: MONEI signatures to the host's default receiver.
    package func addEndpoint(merchant: String, secret: String, at now: Int64) throws {
        try db.run(
            "INSERT INTO webhook_endpoints (merchant_id, url, scheme, secret, updated_at) VALUES (?, NULL, 'monei', ?, ?)",
            [.text(merchant), .text(secret), .integer(now)])
    }

    /// New settings, which also turn an endpoint disabled by a 410 back on.
    package func updateEndpoint(merchant: String, url: String?, scheme: String, at now: Int64) throws {
        try db.run(
            "UPDATE webhook_endpoints SET url = ?, scheme = ?, disabled_at = NULL, updated_at = ? WHERE merchant_id = ?",
            [url.map(DatabaseValue.text) ?? .null, .text(scheme), .integer(now), .text(merchant)])
    }

    /// A new Standard Webhooks secret; the one it replaces signs too until `previousExpiresAt`.
    package func rotateSecret(merchant: String, to secret: String, previousExpiresAt: Int64, at now: Int64) throws {
        try db.run(
            """
            UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = ?, secret = ?, updated_at = ?
            WHERE merchant_id = ?
            """, [.integer(previousExpiresAt), .text(secret), .integer(now), .text(merchant)])
    }

    /// The merchant's endpoint answered 410: it is disabled, with the events still pending for its URL.
    package func disableEndpoint(merchant: String, url: String, at now: Int64) throws {
        try db.run(
            "UPDATE webhook_endpoints SET disabled_at = ?, updated_at = ? WHERE merchant_id = ? AND disabled_at IS NULL",
            [.integer(now), .integer(now), .text(merchant)])
        try db.run(
            "UPDATE webhook_events SET state = 'disabled', next_attempt_at = NULL WHERE merchant_id = ? AND state = 'pending' AND url = ?",
            [.text(merchant), .text(url)])
    }

    // MARK: - Events

    /// Writes one event for delivery now (or as `disabled`, never to be sent).
    package func enqueue(
        id: String, type: String, merchant: String, transaction: String?, url: String, scheme: String, disabled: Bool, body: [UInt8],
        at now: Int64
    ) throws {
        try db.run(
            """
            INSERT INTO webhook_events (id, type, merchant_id, transaction_id, url, scheme, body, created_at, state, attempts,
                                        next_attempt_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)
            """,
            [.text(id), .text(type), .text(merchant), transaction.map(DatabaseValue.text) ?? .null, .text(url),
             .text(scheme), .blob(body), .integer(now), .text(disabled ? "disabled" : "pending"),
             disabled ? .null : .integer(now)])
        if !disabled { db.notify(Self.channel) }
    }

    /// The store channel a commit that makes an event due notifies: the ``Dispatcher`` listens.
    package static let channel = "webhooks"

    /// The latest events (without payloads), of one merchant or of all.
    package func events(merchant: String?, limit: Int) throws -> [WebhookEventRecord] {
        try db.query(
            """
            SELECT e.*, t.amount AS payment_amount, t.currency AS payment_currency
            FROM webhook_events e LEFT JOIN transactions t ON t.id = e.transaction_id
            WHERE (CAST(? AS TEXT) IS NULL OR e.merchant_id = ?) ORDER BY e.seq DESC LIMIT ?
            """,
            [merchant.map(DatabaseValue.text) ?? .null, merchant.map(DatabaseValue.text) ?? .null, .integer(Int64(limit))]
        ).map { try WebhookEventRecord($0, log: nil) }
    }

    /// One event with its payload and delivery log.
    package func event(_ id: String) throws -> WebhookEventRecord? {
        guard let row = try db.query(
            """
            SELECT e.*, t.amount AS payment_amount, t.currency AS payment_currency
            FROM webhook_events e LEFT JOIN transactions t ON t.id = e.transaction_id WHERE e.id = ?
            """, [.text(id)]).first
        else { return nil }
        let log = try db.query("SELECT * FROM webhook_attempts WHERE event_id = ? ORDER BY id", [.text(id)]).map { attempt in
            WebhookEventRecord.Attempt(
                attempt: try attempt["attempt"], at: Wire.time(try attempt["at"]), status: try attempt["status"],
                latencyMs: try attempt["latency_ms"], error: try attempt["error"], responseExcerpt: try attempt["response_excerpt"])
        }
        return try WebhookEventRecord(row, log: log)
    }

    /// The id of the latest event about a transaction.
    package func latestEvent(transaction: String) throws -> String? {
        try db.query("SELECT id FROM webhook_events WHERE transaction_id = ? ORDER BY seq DESC LIMIT 1", [.text(transaction)]).first
            .map { try $0["id"] }
    }

    /// Makes an event due now again, whatever its state.
    ///
    /// - Returns: false when there is no such event.
    package func replay(_ id: String, at now: Int64) throws -> Bool {
        try db.run("UPDATE webhook_events SET state = 'pending', next_attempt_at = ? WHERE id = ?", [.integer(now), .text(id)])
        db.notify(Self.channel)
        return db.changes == 1
    }

    // MARK: - Delivery

    /// The first `limit` pending events by when they fall due, of those no earlier pending event
    /// of their payment holds back: what the dispatcher sleeps until.
    ///
    /// - Parameter excluding: URLs whose events are left out (endpoints that have their share in flight).
    package func nextDue(limit: Int, excluding: [String] = [], claimedAfter realNow: Int64 = .max) throws -> [(id: String, at: Int64)] {
        func read(_ url: String?) throws -> [(id: String, at: Int64)] {
            try db.query(
                """
                SELECT e.id, e.next_attempt_at FROM webhook_events e
                WHERE e.state = 'pending' AND e.next_attempt_at IS NOT NULL\(url == nil ? "" : " AND e.url = ?")
                  AND NOT EXISTS (
                      SELECT 1 FROM webhook_events p
                      WHERE p.transaction_id = e.transaction_id AND p.seq < e.seq AND p.state = 'pending')\(realNow == .max ? "" : Self.unclaimed)
                ORDER BY e.next_attempt_at, e.seq LIMIT ?
                """, (url.map { [DatabaseValue.text($0)] } ?? []) + (realNow == .max ? [] : [.integer(realNow)]) + [.integer(Int64(limit))]
            ).map { (id: try $0["id"], at: try $0["next_attempt_at"]) }
        }
        guard !excluding.isEmpty else { return try read(nil) }
        // Endpoint by endpoint, skipping the excluded ones without reading their backlog.
        let found = try pendingURLs(dueBy: .max).filter { !excluding.contains($0) }.flatMap { try read($0) }
        return Array(found.sorted { $0.at < $1.at }.prefix(limit))
    }

    /// Leaves out the events another replica holds a live claim on (`?`: real time now, ms).
    private static let unclaimed = "\n  AND NOT EXISTS (SELECT 1 FROM webhook_claims c WHERE c.event_id = e.id AND c.until >= ?)"

    /// Takes the events of `ids` that are still pending and due (another replica may have delivered
    /// or rescheduled one since it was read) and that no replica holds a live claim on, for
    /// `replica` until `until`.
    ///
    /// - Returns: the ids taken.
    package func claim(_ ids: [String], replica: String, until: Int64, now realNow: Int64, due sandboxNow: Int64) throws -> Set<String> {
        var taken: Set<String> = []
        for id in ids {
            try db.run(
                """
                INSERT INTO webhook_claims (event_id, replica, until)
                SELECT ?, ?, ? WHERE EXISTS (
                    SELECT 1 FROM webhook_events WHERE id = ? AND state = 'pending' AND next_attempt_at <= ?)
                ON CONFLICT (event_id) DO UPDATE SET replica = excluded.replica, until = excluded.until
                WHERE webhook_claims.until < ?
                """, [.text(id), .text(replica), .integer(until), .text(id), .integer(sandboxNow), .integer(realNow)])
            if db.changes == 1 { taken.insert(id) }
        }
        return taken
    }

    /// Whether `replica` still holds the claim on `event` (else another took it over and delivers
    /// it again); the claim ends either way.
    package func releaseClaim(_ event: String, replica: String) throws -> Bool {
        let holder: String? = try db.query("SELECT replica FROM webhook_claims WHERE event_id = ?", [.text(event)]).first?["replica"]
        try db.run("DELETE FROM webhook_claims WHERE event_id = ? AND replica = ?", [.text(event), .text(replica)])
        return holder == replica
    }

    /// When the earliest claim on a pending event ends (real time, ms): a replica that died
    /// holding it, whose events come back to the others then.
    package func earliestClaimEnd() throws -> Int64? {
        try db.query(
            """
            SELECT MIN(c.until) AS until FROM webhook_claims c JOIN webhook_events e ON e.id = c.event_id WHERE e.state = 'pending'
            """
        ).first?["until"]
    }

    /// The endpoints (URLs) with pending events due by `now`, found by one index seek each
    /// (`webhook_events_due_by_url`) rather than by reading the events. One SQL text whatever
    /// `now` is, so the statement cache keeps it.
    package func pendingURLs(dueBy now: Int64) throws -> [String] {
        try db.query(
            """
            WITH RECURSIVE urls(url) AS (
                SELECT (SELECT MIN(url) FROM webhook_events WHERE state = 'pending' AND next_attempt_at <= ?1)
                UNION ALL
                SELECT (SELECT MIN(url) FROM webhook_events WHERE state = 'pending' AND next_attempt_at <= ?1 AND url > urls.url)
                FROM urls WHERE urls.url IS NOT NULL
            )
            SELECT url FROM urls WHERE url IS NOT NULL
            """, [.integer(now)]
        ).map { try $0["url"] }
    }

    /// The events due by `now`, the earliest first, with their merchant's Standard Webhooks secret
    /// (empty without settings). An event waits while an earlier event of the same payment is still
    /// pending: per payment, receivers get events in the order they happened.
    ///
    /// - Parameter excluding: URLs whose events are left out (endpoints that have their share in flight).
    package func due(at now: Int64, limit: Int, excluding: [String] = [], claimedAfter realNow: Int64 = .max) throws -> [DueWebhook] {
        try dueRows(full: true, at: now, limit: limit, excluding: excluding, claimedAfter: realNow, Self.dueWebhook)
    }

    /// What ``due(at:limit:excluding:claimedAfter:)`` finds, as ids and URLs only: a dispatcher
    /// reads ahead with it, and loads each event afresh (``pendingEvent(_:at:)``) when it sends it.
    package func dueIDs(at now: Int64, limit: Int, excluding: [String] = []) throws -> [(id: String, url: String)] {
        try dueRows(full: false, at: now, limit: limit, excluding: excluding, claimedAfter: .max) { row in
            (id: try row["id"], url: try row["url"])
        }
    }

    /// The event `id` as a delivery sends it, if it is still pending and due by `now`.
    package func pendingEvent(_ id: String, at now: Int64) throws -> DueWebhook? {
        try db.query(
            """
            SELECT \(Self.dueColumns) FROM webhook_events e LEFT JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id
            WHERE e.id = ? AND e.state = 'pending' AND e.next_attempt_at <= ?
            """, [.integer(now), .text(id), .integer(now)]
        ).first.map(Self.dueWebhook)
    }

    private static let dueColumns = """
        e.id, e.merchant_id, e.url, e.scheme, e.body, e.attempts, e.next_attempt_at, w.secret,
            CASE WHEN w.previous_secret_expires_at > ? THEN w.previous_secret END AS previous_secret
        """

    private static func dueWebhook(_ row: Row) throws -> DueWebhook {
        DueWebhook(
            id: try row["id"], merchant: try row["merchant_id"], url: try row["url"], scheme: try row["scheme"], body: try row["body"],
            attempts: try row["attempts"], secret: try row["secret"] as String? ?? "", previousSecret: try row["previous_secret"])
    }

    /// The due events, the earliest first, endpoint by endpoint when some are left out: `full`, every
    /// column a delivery sends (with the endpoint's secrets), else only id, URL and due time.
    private func dueRows<Found>(
        full: Bool, at now: Int64, limit: Int, excluding: [String], claimedAfter realNow: Int64, _ make: (Row) throws -> Found
    ) throws -> [Found] {
        let columns = full ? Self.dueColumns : "e.id, e.url, e.next_attempt_at"
        func read(_ url: String?) throws -> [(at: Int64, found: Found)] {
            try db.query(
                """
                SELECT \(columns)
                FROM webhook_events e\(full ? " LEFT JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id" : "")
                WHERE e.state = 'pending' AND e.next_attempt_at <= ?\(url == nil ? "" : " AND e.url = ?")
                  AND NOT EXISTS (
                      SELECT 1 FROM webhook_events p
                      WHERE p.transaction_id = e.transaction_id AND p.seq < e.seq AND p.state = 'pending')\(realNow == .max ? "" : Self.unclaimed)
                ORDER BY e.next_attempt_at, e.seq LIMIT ?
                """,
                (full ? [.integer(now)] : []) + [.integer(now)] + (url.map { [DatabaseValue.text($0)] } ?? [])
                    + (realNow == .max ? [] : [.integer(realNow)]) + [.integer(Int64(limit))]
            ).map { row in (at: try row["next_attempt_at"], found: try make(row)) }
        }
        guard !excluding.isEmpty else { return try read(nil).map(\.found) }
        // Endpoint by endpoint, skipping the excluded ones without reading their backlog.
        let found = try pendingURLs(dueBy: now).filter { !excluding.contains($0) }.flatMap { try read($0) }
        return found.sorted { $0.at < $1.at }.prefix(limit).map(\.found)
    }

    /// One attempt of the delivery log.
    ///
    /// - Parameter status: nil when no HTTP answer came (connection failed, timeout).
    package func addAttempt(
        event: String, attempt: Int, at now: Int64, status: Int?, latencyMs: Double, error: String?, responseExcerpt: String?
    ) throws {
        try db.run(
            """
            INSERT INTO webhook_attempts (event_id, attempt, at, status, latency_ms, error, response_excerpt)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(event), .integer(Int64(attempt)), .integer(now), status.map { .integer(Int64($0)) } ?? .null,
             .real(latencyMs), error.map(DatabaseValue.text) ?? .null, responseExcerpt.map(DatabaseValue.text) ?? .null])
    }

    package func markDelivered(_ event: String, attempts: Int, at now: Int64) throws {
        try db.run(
            "UPDATE webhook_events SET state = 'delivered', attempts = ?, delivered_at = ?, next_attempt_at = NULL WHERE id = ?",
            [.integer(Int64(attempts)), .integer(now), .text(event)])
    }

    package func markDisabled(_ event: String, attempts: Int) throws {
        try db.run(
            "UPDATE webhook_events SET state = 'disabled', attempts = ?, next_attempt_at = NULL WHERE id = ?",
            [.integer(Int64(attempts)), .text(event)])
    }

    package func markFailed(_ event: String, attempts: Int) throws {
        try db.run(
            "UPDATE webhook_events SET state = 'failed', attempts = ?, next_attempt_at = NULL WHERE id = ?",
            [.integer(Int64(attempts)), .text(event)])
    }

    package func reschedule(_ event: String, attempts: Int, at next: Int64) throws {
        try db.run(
            "UPDATE webhook_events SET attempts = ?, next_attempt_at = ? WHERE id = ?", [.integer(Int64(attempts)), .integer(next), .text(event)])
    }

    /// Whether an event went to its payment's own `callbackUrl` (not to the merchant's endpoint).
    package func wasSentToCallback(_ event: String) throws -> Bool {
        try !db.query(
            """
            SELECT 1 FROM webhook_events e JOIN transactions t ON t.id = e.transaction_id
            WHERE e.id = ? AND t.callback_url = e.url
            """, [.text(event)]
        ).isEmpty
    }
}

package extension WebhookEventRecord {
    /// A row of `webhook_events`; with its delivery log, also its payload.
    init(_ row: Row, log: [Attempt]?) throws {
        self.init(
            id: try row["id"], type: try row["type"], merchantId: try row["merchant_id"],
            transactionId: try row["transaction_id"], amount: try row["payment_amount"], currency: try row["payment_currency"], url: try row["url"], scheme: try row["scheme"], state: try row["state"],
            attempts: try row["attempts"], createdAt: Wire.time(try row["created_at"]),
            nextAttemptAt: (try row["next_attempt_at"] as Int64?).map(Wire.time),
            deliveredAt: (try row["delivered_at"] as Int64?).map(Wire.time),
            payload: log == nil ? nil : String(decoding: try row["body"] as [UInt8], as: UTF8.self), log: log)
    }
}
