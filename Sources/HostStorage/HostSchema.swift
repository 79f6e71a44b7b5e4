import SandboxStore

/// The environment host's database.
package enum HostSchema {
    /// The host database's migrations, in order; later issues append, never edit.
    package static let migrations: [Migration] = [
        Migration(
            version: 1, name: "host identity",
            sql: """
                CREATE TABLE host_identity (
                    key   TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                ) STRICT;
                """),
        Migration(
            version: 2, name: "terminal lifecycle",
            sql: """
                CREATE TABLE merchants (
                    id       TEXT PRIMARY KEY,
                    api_key  TEXT NOT NULL UNIQUE,
                    document TEXT NOT NULL              -- the fixture, JSON
                ) STRICT;
                CREATE TABLE terminals (
                    id          TEXT PRIMARY KEY,
                    merchant_id TEXT NOT NULL REFERENCES merchants(id),
                    position    INTEGER NOT NULL,       -- fixture order: "next free terminal" follows it
                    profile     TEXT NOT NULL           -- the fixture, JSON
                ) STRICT;
                CREATE TABLE devices (
                    id                  TEXT PRIMARY KEY,   -- the installation id the device sends
                    model               TEXT NOT NULL,
                    terminal_id         TEXT REFERENCES terminals(id),
                    state               TEXT NOT NULL CHECK (state IN ('registered', 'unregistered')),
                    secret_hash         TEXT NOT NULL,
                    pin_salt            TEXT,
                    pin_hash            TEXT,
                    failed_attempts     INTEGER NOT NULL DEFAULT 0,
                    locked              INTEGER NOT NULL DEFAULT 0,
                    registered_at       INTEGER NOT NULL,
                    last_login_at       INTEGER,
                    relinked_at         INTEGER,
                    unregistered_reason TEXT
                ) STRICT;
                -- A terminal has at most one registered device.
                CREATE UNIQUE INDEX devices_one_per_terminal ON devices(terminal_id) WHERE state = 'registered';
                CREATE TABLE challenges (
                    code                  TEXT PRIMARY KEY,
                    device_id             TEXT NOT NULL,
                    device_model          TEXT NOT NULL,
                    created_at            INTEGER NOT NULL,
                    expires_at            INTEGER NOT NULL,
                    terminal_id           TEXT REFERENCES terminals(id),
                    backoffice_code       TEXT UNIQUE,
                    backoffice_expires_at INTEGER,
                    completed_at          INTEGER
                ) STRICT;
                CREATE TABLE registration_tokens (
                    token        TEXT PRIMARY KEY,
                    terminal_id  TEXT NOT NULL REFERENCES terminals(id),
                    created_at   INTEGER NOT NULL,
                    expires_at   INTEGER NOT NULL,
                    state        TEXT NOT NULL CHECK (state IN ('issued', 'verified', 'begun', 'used')),
                    device_id    TEXT,
                    device_model TEXT,
                    email        TEXT
                ) STRICT;
                CREATE TABLE sessions (
                    token_hash  TEXT PRIMARY KEY,       -- SHA-256 of the bearer token: the token itself is never stored
                    device_id   TEXT NOT NULL REFERENCES devices(id),
                    terminal_id TEXT NOT NULL REFERENCES terminals(id),
                    created_at  INTEGER NOT NULL,
                    expires_at  INTEGER NOT NULL,
                    ended_at    INTEGER
                ) STRICT;
                CREATE INDEX sessions_by_device ON sessions(device_id);
                CREATE TABLE support_numbers (
                    device_id TEXT PRIMARY KEY,
                    number    TEXT NOT NULL UNIQUE
                ) STRICT;
                CREATE TABLE mailbox (
                    id         INTEGER PRIMARY KEY,
                    recipient  TEXT NOT NULL,
                    subject    TEXT NOT NULL,
                    body       TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                ) STRICT;
                """),
        Migration(
            version: 3, name: "card payments",
            sql: """
                CREATE TABLE transactions (
                    seq                     INTEGER PRIMARY KEY,  -- arrival order: "latest" follows it
                    id                      TEXT NOT NULL UNIQUE,
                    terminal_id             TEXT NOT NULL REFERENCES terminals(id),
                    merchant_id             TEXT NOT NULL,
                    type                    TEXT NOT NULL,        -- AUTH | REFUND
                    status                  TEXT NOT NULL,
                    payment_method          TEXT NOT NULL,
                    amount                  INTEGER NOT NULL,
                    tip_amount              INTEGER,
                    currency                TEXT NOT NULL,
                    reference               TEXT,
                    created_at              INTEGER NOT NULL,
                    updated_at              INTEGER NOT NULL,
                    pending_until           INTEGER,              -- in-flight deadline (NEW 120 s, PIN 60 s, ONGOING 30 s)
                    card_brand              TEXT,
                    masked_pan              TEXT,
                    pan_hash                TEXT,                 -- to check a PIN and a refund's card, never the PAN itself
                    card_expiry             TEXT,
                    card_country            TEXT,
                    aid                     TEXT,
                    application_label       TEXT,
                    cvm                     TEXT,                 -- none | onlinePin
                    pin_verified            INTEGER NOT NULL DEFAULT 0,
                    auth_id                 TEXT,
                    rrn                     TEXT,
                    cid                     TEXT,
                    cryptogram              TEXT,
                    response_code           TEXT,
                    response_message        TEXT,
                    original_id             TEXT,                 -- a refund's sale
                    refunded_at             INTEGER,              -- on a sale: when it was refunded
                    refunded_masked_pan     TEXT,
                    refund_amount           INTEGER,
                    dcc_status              TEXT,
                    dcc_amount              INTEGER,
                    dcc_currency            TEXT,
                    dcc_rate                REAL,
                    dcc_markup              REAL,
                    dcc_ecb                 INTEGER,
                    retries                 INTEGER NOT NULL DEFAULT 0
                ) STRICT;
                CREATE INDEX transactions_by_terminal_time ON transactions(terminal_id, created_at);
                CREATE INDEX transactions_by_reference ON transactions(reference) WHERE reference IS NOT NULL;
                CREATE INDEX transactions_in_flight ON transactions(terminal_id) WHERE pending_until IS NOT NULL;
                CREATE TABLE card_reads (
                    read_id TEXT PRIMARY KEY,   -- a sealed payload is good for one transaction
                    used_at INTEGER NOT NULL
                ) STRICT;
                CREATE TABLE idempotency_keys (
                    terminal_id  TEXT NOT NULL,
                    key          TEXT NOT NULL,
                    request_hash TEXT NOT NULL,
                    status       INTEGER NOT NULL,
                    body         BLOB NOT NULL,
                    created_at   INTEGER NOT NULL,
                    PRIMARY KEY (terminal_id, key)
                ) STRICT;
                CREATE TABLE checkouts (
                    id             TEXT PRIMARY KEY,
                    merchant_id    TEXT NOT NULL,
                    terminal_id    TEXT NOT NULL,
                    amount         INTEGER NOT NULL,
                    tip_amount     INTEGER,
                    currency       TEXT NOT NULL,
                    reference      TEXT,
                    created_at     INTEGER NOT NULL,
                    expires_at     INTEGER NOT NULL,
                    transaction_id TEXT
                ) STRICT;
                CREATE TABLE receipts (
                    id             TEXT PRIMARY KEY,
                    transaction_id TEXT NOT NULL,
                    created_at     INTEGER NOT NULL
                ) STRICT;
                """),
        Migration(
            version: 4, name: "webhooks",
            sql: """
                CREATE TABLE webhook_endpoints (
                    merchant_id     TEXT PRIMARY KEY,
                    url             TEXT,                 -- null: the host's default (the sandbox inbox)
                    scheme          TEXT NOT NULL CHECK (scheme IN ('monei', 'standard')),
                    secret          TEXT NOT NULL,        -- whsec_… for Standard Webhooks; MONEI signs with the apiKey
                    disabled_at     INTEGER,              -- a receiver that answered 410
                    updated_at      INTEGER NOT NULL
                ) STRICT;
                CREATE TABLE webhook_events (
                    seq             INTEGER PRIMARY KEY,  -- creation order: per payment, deliveries follow it
                    id              TEXT NOT NULL UNIQUE, -- the same on every attempt
                    type            TEXT NOT NULL,
                    merchant_id     TEXT NOT NULL,
                    transaction_id  TEXT,
                    url             TEXT NOT NULL,
                    scheme          TEXT NOT NULL,
                    body            BLOB NOT NULL,
                    created_at      INTEGER NOT NULL,
                    state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'disabled')),
                    attempts        INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at INTEGER,
                    delivered_at    INTEGER
                ) STRICT;
                CREATE INDEX webhook_events_due ON webhook_events(next_attempt_at) WHERE state = 'pending';
                CREATE INDEX webhook_events_by_transaction ON webhook_events(transaction_id, seq);
                CREATE TABLE webhook_attempts (
                    id               INTEGER PRIMARY KEY,
                    event_id         TEXT NOT NULL,
                    attempt          INTEGER NOT NULL,
                    at               INTEGER NOT NULL,
                    status           INTEGER,             -- null: no HTTP answer (connection failed, timeout)
                    latency_ms       REAL NOT NULL,
                    error            TEXT,
                    response_excerpt TEXT
                ) STRICT;
                CREATE INDEX webhook_attempts_by_event ON webhook_attempts(event_id, id);
                ALTER TABLE transactions ADD COLUMN callback_url TEXT;  -- MONEI's callbackUrl, given with the payment
                """),
        Migration(
            version: 5, name: "latest transaction indexes",
            sql: """
                -- "The terminal's latest sale" (is it still cancellable?) and "its last transaction" are
                -- index seeks, not scans of the terminal's whole history (bench/history.sh at 1M rows).
                CREATE INDEX transactions_latest_by_type ON transactions(terminal_id, type, seq);
                CREATE INDEX transactions_latest ON transactions(terminal_id, seq);
                """),
        Migration(
            version: 6, name: "transaction rollups",
            sql: """
                -- Count and statistics read whole UTC hours and days from these totals and only the part of
                -- an hour at either end of a range from the rows (CardPayments+Reads.swift, Rollup). Triggers keep
                -- them in step with every insert, update (a sale CLEARED → REFUNDED moves between rows) and
                -- delete of a transaction, whoever writes it. A total that reaches zero is removed, so the
                -- tables always equal a GROUP BY of the transactions. card_brand 'UNKNOWN': no card read.
                CREATE TABLE transaction_hours (
                    terminal_id    TEXT NOT NULL,
                    hour           INTEGER NOT NULL,      -- created_at / 3600000: UTC hours since 1970
                    type           TEXT NOT NULL,
                    status         TEXT NOT NULL,
                    payment_method TEXT NOT NULL,
                    card_brand     TEXT NOT NULL,
                    n              INTEGER NOT NULL,
                    amount         INTEGER NOT NULL,      -- sum of the transactions' amounts
                    PRIMARY KEY (terminal_id, hour, type, status, payment_method, card_brand)
                ) STRICT, WITHOUT ROWID;
                CREATE TABLE transaction_days (
                    terminal_id    TEXT NOT NULL,
                    day            INTEGER NOT NULL,      -- created_at / 86400000: UTC days since 1970
                    type           TEXT NOT NULL,
                    status         TEXT NOT NULL,
                    payment_method TEXT NOT NULL,
                    card_brand     TEXT NOT NULL,
                    n              INTEGER NOT NULL,
                    amount         INTEGER NOT NULL,
                    PRIMARY KEY (terminal_id, day, type, status, payment_method, card_brand)
                ) STRICT, WITHOUT ROWID;
                -- The transactions already there: one pass over them, the days from the hours.
                INSERT INTO transaction_hours (terminal_id, hour, type, status, payment_method, card_brand, n, amount)
                    SELECT terminal_id, created_at / 3600000, type, status, payment_method, COALESCE(card_brand, 'UNKNOWN'),
                           COUNT(*), SUM(amount)
                    FROM transactions GROUP BY 1, 2, 3, 4, 5, 6;
                INSERT INTO transaction_days (terminal_id, day, type, status, payment_method, card_brand, n, amount)
                    SELECT terminal_id, hour / 24, type, status, payment_method, card_brand, SUM(n), SUM(amount)
                    FROM transaction_hours GROUP BY 1, 2, 3, 4, 5, 6;
                CREATE TRIGGER transactions_rollup_insert AFTER INSERT ON transactions BEGIN
                    INSERT INTO transaction_hours (terminal_id, hour, type, status, payment_method, card_brand, n, amount)
                        VALUES (NEW.terminal_id, NEW.created_at / 3600000, NEW.type, NEW.status, NEW.payment_method,
                                COALESCE(NEW.card_brand, 'UNKNOWN'), 1, NEW.amount)
                        ON CONFLICT DO UPDATE SET n = n + 1, amount = amount + excluded.amount;
                    INSERT INTO transaction_days (terminal_id, day, type, status, payment_method, card_brand, n, amount)
                        VALUES (NEW.terminal_id, NEW.created_at / 86400000, NEW.type, NEW.status, NEW.payment_method,
                                COALESCE(NEW.card_brand, 'UNKNOWN'), 1, NEW.amount)
                        ON CONFLICT DO UPDATE SET n = n + 1, amount = amount + excluded.amount;
                END;
                CREATE TRIGGER transactions_rollup_delete AFTER DELETE ON transactions BEGIN
                    UPDATE transaction_hours SET n = n - 1, amount = amount - OLD.amount
                        WHERE terminal_id = OLD.terminal_id AND hour = OLD.created_at / 3600000 AND type = OLD.type AND status = OLD.status
                          AND payment_method = OLD.payment_method AND card_brand = COALESCE(OLD.card_brand, 'UNKNOWN');
                    DELETE FROM transaction_hours
                        WHERE terminal_id = OLD.terminal_id AND hour = OLD.created_at / 3600000 AND type = OLD.type AND status = OLD.status
                          AND payment_method = OLD.payment_method AND card_brand = COALESCE(OLD.card_brand, 'UNKNOWN') AND n = 0;
                    UPDATE transaction_days SET n = n - 1, amount = amount - OLD.amount
                        WHERE terminal_id = OLD.terminal_id AND day = OLD.created_at / 86400000 AND type = OLD.type AND status = OLD.status
                          AND payment_method = OLD.payment_method AND card_brand = COALESCE(OLD.card_brand, 'UNKNOWN');
                    DELETE FROM transaction_days
                        WHERE terminal_id = OLD.terminal_id AND day = OLD.created_at / 86400000 AND type = OLD.type AND status = OLD.status
                          AND payment_method = OLD.payment_method AND card_brand = COALESCE(OLD.card_brand, 'UNKNOWN') AND n = 0;
                END;
                -- The upsert of TransactionRecord.save sets every column: act only when a counted one changed.
                CREATE TRIGGER transactions_rollup_update AFTER UPDATE ON transactions
                WHEN OLD.terminal_id IS NOT NEW.terminal_id OR OLD.created_at / 3600000 IS NOT NEW.created_at / 3600000
                  OR OLD.type IS NOT NEW.type OR OLD.status IS NOT NEW.status OR OLD.payment_method IS NOT NEW.payment_method
                  OR OLD.card_brand IS NOT NEW.card_brand OR OLD.amount IS NOT NEW.amount
                BEGIN
                    UPDATE transaction_hours SET n = n - 1, amount = amount - OLD.amount
                        WHERE terminal_id = OLD.terminal_id AND hour = OLD.created_at / 3600000 AND type = OLD.type AND status = OLD.status
                          AND payment_method = OLD.payment_method AND card_brand = COALESCE(OLD.card_brand, 'UNKNOWN');
                    DELETE FROM transaction_hours
                        WHERE terminal_id = OLD.terminal_id AND hour = OLD.created_at / 3600000 AND type = OLD.type AND status = OLD.status
                          AND payment_method = OLD.payment_method AND card_brand = COALESCE(OLD.card_brand, 'UNKNOWN') AND n = 0;
                    UPDATE transaction_days SET n = n - 1, amount = amount - OLD.amount
                        WHERE terminal_id = OLD.terminal_id AND day = OLD.created_at / 86400000 AND type = OLD.type AND status = OLD.status
                          AND payment_method = OLD.payment_method AND card_brand = COALESCE(OLD.card_brand, 'UNKNOWN');
                    DELETE FROM transaction_days
                        WHERE terminal_id = OLD.terminal_id AND day = OLD.created_at / 86400000 AND type = OLD.type AND status = OLD.status
                          AND payment_method = OLD.payment_method AND card_brand = COALESCE(OLD.card_brand, 'UNKNOWN') AND n = 0;
                    INSERT INTO transaction_hours (terminal_id, hour, type, status, payment_method, card_brand, n, amount)
                        VALUES (NEW.terminal_id, NEW.created_at / 3600000, NEW.type, NEW.status, NEW.payment_method,
                                COALESCE(NEW.card_brand, 'UNKNOWN'), 1, NEW.amount)
                        ON CONFLICT DO UPDATE SET n = n + 1, amount = amount + excluded.amount;
                    INSERT INTO transaction_days (terminal_id, day, type, status, payment_method, card_brand, n, amount)
                        VALUES (NEW.terminal_id, NEW.created_at / 86400000, NEW.type, NEW.status, NEW.payment_method,
                                COALESCE(NEW.card_brand, 'UNKNOWN'), 1, NEW.amount)
                        ON CONFLICT DO UPDATE SET n = n + 1, amount = amount + excluded.amount;
                END;
                """),
        Migration(
            version: 7, name: "fewer index pages per sale",
            sql: """
                -- "The terminal's last transaction" is the later of its last sale and its last refund, two
                -- seeks in transactions_latest_by_type (CardPayments+Reads.swift, last). Every sale wrote one more
                -- index page for this index, on a page of its own terminal's.
                DROP INDEX transactions_latest;
                -- Spent reads by (readAt, readId): a replay carries the same sealed readAt, and new reads land at
                -- the end of the tree instead of on a random page of an index over random ids. The readAt of a
                -- read spent before is not known: it is -1, and spending a read looks for its id there too.
                CREATE TABLE spent_reads (
                    read_at INTEGER NOT NULL,   -- the payload's readAt; -1 for reads spent before this migration
                    read_id TEXT NOT NULL,
                    used_at INTEGER NOT NULL,
                    PRIMARY KEY (read_at, read_id)
                ) STRICT, WITHOUT ROWID;
                INSERT INTO spent_reads (read_at, read_id, used_at) SELECT -1, read_id, used_at FROM card_reads;
                DROP TABLE card_reads;
                ALTER TABLE spent_reads RENAME TO card_reads;
                """),
        Migration(
            version: 8, name: "the merchant portal's back office",
            sql: """
                -- The portal lists every terminal's transactions, the latest first: without this the
                -- newest page of a million rows sorts them all.
                CREATE INDEX transactions_by_time ON transactions(created_at);
                -- A rotated Standard Webhooks secret keeps signing, beside the new one, until it expires.
                ALTER TABLE webhook_endpoints ADD COLUMN previous_secret TEXT;
                ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_expires_at INTEGER;
                """),
        Migration(
            version: 9, name: "QR wallet payments",
            sql: """
                -- A QR payment or refund is a row of transactions (payment_method QRCODE, its brand in
                -- card_brand), so history, count, statistics, the back office and receipts show it; what
                -- only an APM has sits beside. pending_until is its order (or refund) deadline while in flight.
                ALTER TABLE transactions ADD COLUMN apm_brand_full_name TEXT;
                ALTER TABLE transactions ADD COLUMN apm_qr_code TEXT;              -- the wallet's payUrl
                ALTER TABLE transactions ADD COLUMN apm_expires_at INTEGER;        -- apmTimeout / apmRefundTimeout after creation
                ALTER TABLE transactions ADD COLUMN apm_provider_reference TEXT;   -- the wallet's payment (or refund) id
                ALTER TABLE transactions ADD COLUMN apm_decline_reason TEXT;       -- an APMDeclineReason
                CREATE INDEX transactions_by_original ON transactions(original_id) WHERE original_id IS NOT NULL;
                -- Notifications the wallet sent that the host took: a repeat (same id) changes nothing.
                CREATE TABLE apm_notifications (
                    id             TEXT PRIMARY KEY,
                    type           TEXT NOT NULL,
                    transaction_id TEXT NOT NULL,
                    received_at    INTEGER NOT NULL
                ) STRICT;
                -- Calls the host owes the wallet (close an order, ask for a refund), written in the same
                -- database transaction as the change that calls for them and retried until the wallet answers.
                CREATE TABLE wallet_calls (
                    seq             INTEGER PRIMARY KEY,
                    kind            TEXT NOT NULL CHECK (kind IN ('close', 'refund')),
                    transaction_id  TEXT NOT NULL,
                    path            TEXT NOT NULL,
                    body            BLOB NOT NULL,
                    created_at      INTEGER NOT NULL,         -- sandbox clock
                    state           TEXT NOT NULL CHECK (state IN ('pending', 'answered')),
                    attempts        INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at INTEGER NOT NULL,         -- real time (ms): retries back off in real time
                    last_status     INTEGER,                  -- the wallet's last HTTP status, null: no answer
                    last_error      TEXT,
                    answered_at     INTEGER
                ) STRICT;
                CREATE INDEX wallet_calls_due ON wallet_calls(next_attempt_at) WHERE state = 'pending';
                """),
        Migration(
            version: 10, name: "registration mails with their QR",
            sql: """
                -- What a mail shows as a QR code (a registration token's app link), so the mailbox opens it
                -- as the customer sees it.
                ALTER TABLE mailbox ADD COLUMN qr TEXT;
                """),
        Migration(
            version: 11, name: "a read id clears once, ever",
            sql: """
                -- Spent reads by their id alone: keyed by (readAt, readId), a payload sealed again with the
                -- same id and a readAt 1 ms later was a new read and cleared again. An id spent more than
                -- once under the old key keeps its first use and its latest readAt.
                CREATE TABLE spent_read_ids (
                    read_id TEXT PRIMARY KEY,
                    read_at INTEGER NOT NULL,   -- the payload's readAt when it was spent; -1 for reads spent before schema 7
                    used_at INTEGER NOT NULL
                ) STRICT, WITHOUT ROWID;
                INSERT INTO spent_read_ids (read_id, read_at, used_at)
                    SELECT read_id, MAX(read_at), MIN(used_at) FROM card_reads GROUP BY read_id;
                DROP TABLE card_reads;
                ALTER TABLE spent_read_ids RENAME TO card_reads;
                """),
        Migration(
            version: 12, name: "pending webhook events by endpoint",
            sql: """
                -- The dispatcher finds the endpoints with due events, and each one's earliest, by seeks
                -- in this index: an endpoint that has its share in flight is skipped without reading its
                -- backlog.
                CREATE INDEX webhook_events_due_by_url ON webhook_events(url, next_attempt_at) WHERE state = 'pending';
                """),
        Migration(
            version: 13, name: "scripted customers",
            sql: """
                -- What the customer does at a terminal's next card screens, queued by a test
                -- (/_sandbox/customer) and taken in order by the simulated reader; the turn as JSON.
                CREATE TABLE customer_turns (
                    id INTEGER PRIMARY KEY,
                    terminal_id TEXT NOT NULL,
                    turn TEXT NOT NULL
                );
                CREATE INDEX customer_turns_by_terminal ON customer_turns(terminal_id, id);
                """),
        Migration(version: 14, name: "webhook claims", sql: Self.webhookClaims),
        Migration(version: 15, name: "attempt failures", sql: Self.attemptFailures),
        Migration(version: 16, name: "request journal", sql: """
            -- The request journal replicas on one PostgreSQL database share (a lone SQLite host keeps
            -- it in memory and leaves this empty): each entry as JSON, the latest per surface.
            CREATE TABLE request_journal (
                seq        INTEGER PRIMARY KEY,
                surface    TEXT NOT NULL,
                request_id TEXT NOT NULL,
                entry      TEXT NOT NULL
            );
            CREATE INDEX request_journal_by_surface ON request_journal(surface, seq);
            CREATE INDEX request_journal_by_request ON request_journal(request_id);
            """),
    ]

    /// The wrong codes typed, by client address or device, while replicas on one PostgreSQL
    /// database count them together (a lone SQLite host counts in memory and leaves it empty).
    static let attemptFailures = """
        CREATE TABLE attempt_failures (
            kind TEXT NOT NULL CHECK (kind IN ('address', 'device')),
            key  TEXT NOT NULL,
            at   BIGINT NOT NULL
        );
        CREATE INDEX attempt_failures_by_key ON attempt_failures(kind, key, at);
        CREATE INDEX attempt_failures_by_time ON attempt_failures(at);
        """

    /// Which replica delivers which event, until when (real time, ms): replicas on one PostgreSQL
    /// database take an event each, and one whose replica died is taken again once the lease ends.
    /// A lone SQLite host has no one to share with and leaves it empty.
    static let webhookClaims = """
        CREATE TABLE webhook_claims (
            event_id TEXT PRIMARY KEY,
            replica  TEXT NOT NULL,
            until    BIGINT NOT NULL
        );
        """

    /// Records which region owns a new database, and refuses a database of another region.
    package static func claim(_ store: Store, for region: String) throws {
        let owner = try store.write { db in try db.host.claim(for: region) }
        guard owner == region else {
            throw HostError.databaseOfAnotherRegion(expected: region, found: owner ?? "(unknown)")
        }
    }
}

/// Why a host cannot start.
public struct HostError: Error, Equatable, CustomStringConvertible {
    public let description: String

    package static func databaseOfAnotherRegion(expected: String, found: String) -> HostError {
        HostError(description: "the database belongs to region \(found), not \(expected); use another --data-dir")
    }
}
