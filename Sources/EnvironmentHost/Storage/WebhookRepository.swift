import SandboxStore

/// The webhook outbox (`webhook_events`), its delivery log (`webhook_attempts`) and the
/// merchants' endpoint settings (`webhook_endpoints`).
struct WebhookRepository {
    let db: Connection

    // MARK: - Endpoints

    /// A merchant's endpoint settings as stored.
    struct Endpoint {
        /// Null: the host's default receiver.
        let url: String?
        let scheme: String
        let secret: String
        /// When a receiver answered 410 (nil: it is on).
        let disabledAt: Int64?
    }

    func endpoint(merchant: String) throws -> Endpoint? {
        try db.query("SELECT * FROM webhook_endpoints WHERE merchant_id = ?", [.text(merchant)]).first.map { row in
            Endpoint(url: try row["url"], scheme: try row["scheme"], secret: try row["secret"], disabledAt: try row["disabled_at"])
        }
    }

    /// A merchant's first settings: MONEI signatures to the host's default receiver.
    func addEndpoint(merchant: String, secret: String, at now: Int64) throws {
        try db.run(
            "INSERT INTO webhook_endpoints (merchant_id, url, scheme, secret, updated_at) VALUES (?, NULL, 'monei', ?, ?)",
            [.text(merchant), .text(secret), .integer(now)])
    }

    /// New settings, which also turn an endpoint disabled by a 410 back on.
    func updateEndpoint(merchant: String, url: String?, scheme: String, at now: Int64) throws {
        try db.run(
            "UPDATE webhook_endpoints SET url = ?, scheme = ?, disabled_at = NULL, updated_at = ? WHERE merchant_id = ?",
            [url.map(DatabaseValue.text) ?? .null, .text(scheme), .integer(now), .text(merchant)])
    }

    /// The merchant's endpoint answered 410: it is disabled, with the events still pending for its URL.
    func disableEndpoint(merchant: String, url: String, at now: Int64) throws {
        try db.run(
            "UPDATE webhook_endpoints SET disabled_at = ?, updated_at = ? WHERE merchant_id = ? AND disabled_at IS NULL",
            [.integer(now), .integer(now), .text(merchant)])
        try db.run(
            "UPDATE webhook_events SET state = 'disabled', next_attempt_at = NULL WHERE merchant_id = ? AND state = 'pending' AND url = ?",
            [.text(merchant), .text(url)])
    }

    // MARK: - Events

    /// An event as stored.
    struct Event {
        let id: String
        let type: String
        let merchantID: String
        let transactionID: String?
        let url: String
        let scheme: String
        let body: [UInt8]
        let createdAt: Int64
        /// `pending`, `delivered`, `failed` or `disabled`.
        let state: String
        let attempts: Int
        let nextAttemptAt: Int64?
        let deliveredAt: Int64?

        init(_ row: Row) throws {
            id = try row["id"]
            type = try row["type"]
            merchantID = try row["merchant_id"]
            transactionID = try row["transaction_id"]
            url = try row["url"]
            scheme = try row["scheme"]
            body = try row["body"]
            createdAt = try row["created_at"]
            state = try row["state"]
            attempts = try row["attempts"]
            nextAttemptAt = try row["next_attempt_at"]
            deliveredAt = try row["delivered_at"]
        }
    }

    /// Writes one event for delivery now (or as `disabled`, never to be sent).
    func enqueue(
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
    }

    /// The latest events, of one merchant or of all.
    func events(merchant: String?, limit: Int) throws -> [Event] {
        try db.query(
            "SELECT * FROM webhook_events WHERE (? IS NULL OR merchant_id = ?) ORDER BY seq DESC LIMIT ?",
            [merchant.map(DatabaseValue.text) ?? .null, merchant.map(DatabaseValue.text) ?? .null, .integer(Int64(limit))]
        ).map(Event.init)
    }

    func event(_ id: String) throws -> Event? {
        try db.query("SELECT * FROM webhook_events WHERE id = ?", [.text(id)]).first.map(Event.init)
    }

    /// The id of the latest event about a transaction.
    func latestEvent(transaction: String) throws -> String? {
        try db.query("SELECT id FROM webhook_events WHERE transaction_id = ? ORDER BY seq DESC LIMIT 1", [.text(transaction)]).first
            .map { try $0["id"] }
    }

    /// Makes an event due now again, whatever its state.
    ///
    /// - Returns: false when there is no such event.
    func replay(_ id: String, at now: Int64) throws -> Bool {
        try db.run("UPDATE webhook_events SET state = 'pending', next_attempt_at = ? WHERE id = ?", [.integer(now), .text(id)])
        return db.changes == 1
    }

    // MARK: - Delivery

    /// The events due by `now`, the earliest first, with their merchant's Standard Webhooks secret
    /// (empty without settings). An event waits while an earlier event of the same payment is still
    /// pending: per payment, receivers get events in the order they happened.
    func due(at now: Int64, limit: Int) throws -> [Dispatcher.Due] {
        try db.query(
            """
            SELECT e.id, e.merchant_id, e.url, e.scheme, e.body, e.attempts, w.secret
            FROM webhook_events e LEFT JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id
            WHERE e.state = 'pending' AND e.next_attempt_at <= ?
              AND NOT EXISTS (
                  SELECT 1 FROM webhook_events p
                  WHERE p.transaction_id = e.transaction_id AND p.seq < e.seq AND p.state = 'pending')
            ORDER BY e.next_attempt_at, e.seq LIMIT ?
            """, [.integer(now), .integer(Int64(limit))]
        ).map { row in
            Dispatcher.Due(
                id: try row["id"], merchant: try row["merchant_id"], url: try row["url"], scheme: try row["scheme"],
                body: try row["body"], attempts: try row["attempts"], secret: try row["secret"] as String? ?? "")
        }
    }

    /// One attempt of the delivery log.
    struct Attempt {
        let attempt: Int
        let at: Int64
        /// Nil: no HTTP answer (connection failed, timeout).
        let status: Int?
        let latencyMs: Double
        let error: String?
        let responseExcerpt: String?
    }

    func addAttempt(_ attempt: Attempt, event: String) throws {
        try db.run(
            """
            INSERT INTO webhook_attempts (event_id, attempt, at, status, latency_ms, error, response_excerpt)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(event), .integer(Int64(attempt.attempt)), .integer(attempt.at), attempt.status.map { .integer(Int64($0)) } ?? .null,
             .real(attempt.latencyMs), attempt.error.map(DatabaseValue.text) ?? .null,
             attempt.responseExcerpt.map(DatabaseValue.text) ?? .null])
    }

    /// An event's delivery log, in attempt order.
    func attempts(event: String) throws -> [Attempt] {
        try db.query("SELECT * FROM webhook_attempts WHERE event_id = ? ORDER BY id", [.text(event)]).map { row in
            Attempt(
                attempt: try row["attempt"], at: try row["at"], status: try row["status"], latencyMs: try row["latency_ms"],
                error: try row["error"], responseExcerpt: try row["response_excerpt"])
        }
    }

    func markDelivered(_ event: String, attempts: Int, at now: Int64) throws {
        try db.run(
            "UPDATE webhook_events SET state = 'delivered', attempts = ?, delivered_at = ?, next_attempt_at = NULL WHERE id = ?",
            [.integer(Int64(attempts)), .integer(now), .text(event)])
    }

    func markDisabled(_ event: String, attempts: Int) throws {
        try db.run(
            "UPDATE webhook_events SET state = 'disabled', attempts = ?, next_attempt_at = NULL WHERE id = ?",
            [.integer(Int64(attempts)), .text(event)])
    }

    func markFailed(_ event: String, attempts: Int) throws {
        try db.run(
            "UPDATE webhook_events SET state = 'failed', attempts = ?, next_attempt_at = NULL WHERE id = ?",
            [.integer(Int64(attempts)), .text(event)])
    }

    func reschedule(_ event: String, attempts: Int, at next: Int64) throws {
        try db.run(
            "UPDATE webhook_events SET attempts = ?, next_attempt_at = ? WHERE id = ?", [.integer(Int64(attempts)), .integer(next), .text(event)])
    }

    /// Whether an event went to its payment's own `callbackUrl` (not to the merchant's endpoint).
    func wasSentToCallback(_ event: String) throws -> Bool {
        try !db.query(
            """
            SELECT 1 FROM webhook_events e JOIN transactions t ON t.id = e.transaction_id
            WHERE e.id = ? AND t.callback_url = e.url
            """, [.text(event)]
        ).isEmpty
    }
}
