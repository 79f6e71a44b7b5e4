import SandboxStore

extension HostSchema {
    /// The host database on PostgreSQL: the schema the SQLite migrations reach at version 13, in
    /// PostgreSQL's dialect (`BIGINT` for every integer, which holds milliseconds; `BIGSERIAL` for
    /// SQLite's rowid keys; `BYTEA` for blobs; the hour and day totals kept by PL/pgSQL triggers).
    /// A later change appends a migration to both lists.
    package static let postgresMigrations: [Migration] = [
        Migration(
            version: 13, name: "host schema 13 on PostgreSQL",
            sql: """
                CREATE TABLE host_identity (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE merchants (
                    rowid    BIGSERIAL,                 -- fixture order, as SQLite's rowid
                    id       TEXT PRIMARY KEY,
                    api_key  TEXT NOT NULL UNIQUE,
                    document TEXT NOT NULL
                );
                CREATE TABLE terminals (
                    id          TEXT PRIMARY KEY,
                    merchant_id TEXT NOT NULL REFERENCES merchants(id),
                    position    BIGINT NOT NULL,
                    profile     TEXT NOT NULL
                );
                CREATE TABLE devices (
                    id                  TEXT PRIMARY KEY,
                    model               TEXT NOT NULL,
                    terminal_id         TEXT REFERENCES terminals(id),
                    state               TEXT NOT NULL CHECK (state IN ('registered', 'unregistered')),
                    secret_hash         TEXT NOT NULL,
                    pin_salt            TEXT,
                    pin_hash            TEXT,
                    failed_attempts     BIGINT NOT NULL DEFAULT 0,
                    locked              BIGINT NOT NULL DEFAULT 0,
                    registered_at       BIGINT NOT NULL,
                    last_login_at       BIGINT,
                    relinked_at         BIGINT,
                    unregistered_reason TEXT
                );
                CREATE UNIQUE INDEX devices_one_per_terminal ON devices(terminal_id) WHERE state = 'registered';
                CREATE TABLE challenges (
                    code                  TEXT PRIMARY KEY,
                    device_id             TEXT NOT NULL,
                    device_model          TEXT NOT NULL,
                    created_at            BIGINT NOT NULL,
                    expires_at            BIGINT NOT NULL,
                    terminal_id           TEXT REFERENCES terminals(id),
                    backoffice_code       TEXT UNIQUE,
                    backoffice_expires_at BIGINT,
                    completed_at          BIGINT
                );
                CREATE TABLE registration_tokens (
                    token        TEXT PRIMARY KEY,
                    terminal_id  TEXT NOT NULL REFERENCES terminals(id),
                    created_at   BIGINT NOT NULL,
                    expires_at   BIGINT NOT NULL,
                    state        TEXT NOT NULL CHECK (state IN ('issued', 'verified', 'begun', 'used')),
                    device_id    TEXT,
                    device_model TEXT,
                    email        TEXT
                );
                CREATE TABLE sessions (
                    token_hash  TEXT PRIMARY KEY,
                    device_id   TEXT NOT NULL REFERENCES devices(id),
                    terminal_id TEXT NOT NULL REFERENCES terminals(id),
                    created_at  BIGINT NOT NULL,
                    expires_at  BIGINT NOT NULL,
                    ended_at    BIGINT
                );
                CREATE INDEX sessions_by_device ON sessions(device_id);
                CREATE TABLE support_numbers (device_id TEXT PRIMARY KEY, number TEXT NOT NULL UNIQUE);
                CREATE TABLE mailbox (
                    id         BIGSERIAL PRIMARY KEY,
                    recipient  TEXT NOT NULL,
                    subject    TEXT NOT NULL,
                    body       TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    qr         TEXT
                );
                CREATE TABLE transactions (
                    seq                     BIGSERIAL PRIMARY KEY,
                    id                      TEXT NOT NULL UNIQUE,
                    terminal_id             TEXT NOT NULL REFERENCES terminals(id),
                    merchant_id             TEXT NOT NULL,
                    type                    TEXT NOT NULL,
                    status                  TEXT NOT NULL,
                    payment_method          TEXT NOT NULL,
                    amount                  BIGINT NOT NULL,
                    tip_amount              BIGINT,
                    currency                TEXT NOT NULL,
                    reference               TEXT,
                    created_at              BIGINT NOT NULL,
                    updated_at              BIGINT NOT NULL,
                    pending_until           BIGINT,
                    card_brand              TEXT,
                    masked_pan              TEXT,
                    pan_hash                TEXT,
                    card_expiry             TEXT,
                    card_country            TEXT,
                    aid                     TEXT,
                    application_label       TEXT,
                    cvm                     TEXT,
                    pin_verified            BIGINT NOT NULL DEFAULT 0,
                    auth_id                 TEXT,
                    rrn                     TEXT,
                    cid                     TEXT,
                    cryptogram              TEXT,
                    response_code           TEXT,
                    response_message        TEXT,
                    original_id             TEXT,
                    refunded_at             BIGINT,
                    refunded_masked_pan     TEXT,
                    refund_amount           BIGINT,
                    dcc_status              TEXT,
                    dcc_amount              BIGINT,
                    dcc_currency            TEXT,
                    dcc_rate                DOUBLE PRECISION,
                    dcc_markup              DOUBLE PRECISION,
                    dcc_ecb                 BIGINT,
                    retries                 BIGINT NOT NULL DEFAULT 0,
                    callback_url            TEXT,
                    apm_brand_full_name     TEXT,
                    apm_qr_code             TEXT,
                    apm_expires_at          BIGINT,
                    apm_provider_reference  TEXT,
                    apm_decline_reason      TEXT
                );
                CREATE INDEX transactions_by_terminal_time ON transactions(terminal_id, created_at);
                CREATE INDEX transactions_by_reference ON transactions(reference) WHERE reference IS NOT NULL;
                CREATE INDEX transactions_in_flight ON transactions(terminal_id) WHERE pending_until IS NOT NULL;
                CREATE INDEX transactions_latest_by_type ON transactions(terminal_id, type, seq);
                CREATE INDEX transactions_by_time ON transactions(created_at);
                CREATE INDEX transactions_by_original ON transactions(original_id) WHERE original_id IS NOT NULL;
                CREATE TABLE idempotency_keys (
                    terminal_id  TEXT NOT NULL,
                    key          TEXT NOT NULL,
                    request_hash TEXT NOT NULL,
                    status       BIGINT NOT NULL,
                    body         BYTEA NOT NULL,
                    created_at   BIGINT NOT NULL,
                    PRIMARY KEY (terminal_id, key)
                );
                CREATE TABLE checkouts (
                    id             TEXT PRIMARY KEY,
                    merchant_id    TEXT NOT NULL,
                    terminal_id    TEXT NOT NULL,
                    amount         BIGINT NOT NULL,
                    tip_amount     BIGINT,
                    currency       TEXT NOT NULL,
                    reference      TEXT,
                    created_at     BIGINT NOT NULL,
                    expires_at     BIGINT NOT NULL,
                    transaction_id TEXT
                );
                CREATE TABLE receipts (id TEXT PRIMARY KEY, transaction_id TEXT NOT NULL, created_at BIGINT NOT NULL);
                CREATE TABLE webhook_endpoints (
                    merchant_id                 TEXT PRIMARY KEY,
                    url                         TEXT,
                    scheme                      TEXT NOT NULL CHECK (scheme IN ('monei', 'standard')),
                    secret                      TEXT NOT NULL,
                    disabled_at                 BIGINT,
                    updated_at                  BIGINT NOT NULL,
                    previous_secret             TEXT,
                    previous_secret_expires_at  BIGINT
                );
                CREATE TABLE webhook_events (
                    seq             BIGSERIAL PRIMARY KEY,
                    id              TEXT NOT NULL UNIQUE,
                    type            TEXT NOT NULL,
                    merchant_id     TEXT NOT NULL,
                    transaction_id  TEXT,
                    url             TEXT NOT NULL,
                    scheme          TEXT NOT NULL,
                    body            BYTEA NOT NULL,
                    created_at      BIGINT NOT NULL,
                    state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'disabled')),
                    attempts        BIGINT NOT NULL DEFAULT 0,
                    next_attempt_at BIGINT,
                    delivered_at    BIGINT
                );
                CREATE INDEX webhook_events_due ON webhook_events(next_attempt_at) WHERE state = 'pending';
                CREATE INDEX webhook_events_by_transaction ON webhook_events(transaction_id, seq);
                CREATE INDEX webhook_events_due_by_url ON webhook_events(url, next_attempt_at) WHERE state = 'pending';
                CREATE TABLE webhook_attempts (
                    id               BIGSERIAL PRIMARY KEY,
                    event_id         TEXT NOT NULL,
                    attempt          BIGINT NOT NULL,
                    at               BIGINT NOT NULL,
                    status           BIGINT,
                    latency_ms       DOUBLE PRECISION NOT NULL,
                    error            TEXT,
                    response_excerpt TEXT
                );
                CREATE INDEX webhook_attempts_by_event ON webhook_attempts(event_id, id);
                CREATE TABLE transaction_hours (
                    terminal_id    TEXT NOT NULL,
                    hour           BIGINT NOT NULL,
                    type           TEXT NOT NULL,
                    status         TEXT NOT NULL,
                    payment_method TEXT NOT NULL,
                    card_brand     TEXT NOT NULL,
                    n              BIGINT NOT NULL,
                    amount         BIGINT NOT NULL,
                    PRIMARY KEY (terminal_id, hour, type, status, payment_method, card_brand)
                );
                CREATE TABLE transaction_days (
                    terminal_id    TEXT NOT NULL,
                    day            BIGINT NOT NULL,
                    type           TEXT NOT NULL,
                    status         TEXT NOT NULL,
                    payment_method TEXT NOT NULL,
                    card_brand     TEXT NOT NULL,
                    n              BIGINT NOT NULL,
                    amount         BIGINT NOT NULL,
                    PRIMARY KEY (terminal_id, day, type, status, payment_method, card_brand)
                );
                -- The hour and day totals follow every row of transactions, as SQLite's triggers do.
                -- Its tables are found in the host's schema whoever writes a transaction (search_path
                -- kept from the migration's).
                CREATE FUNCTION transactions_rollup() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
                BEGIN
                    IF TG_OP IN ('DELETE', 'UPDATE') THEN
                        UPDATE transaction_hours SET n = n - 1, amount = amount - OLD.amount
                            WHERE terminal_id = OLD.terminal_id AND hour = OLD.created_at / 3600000 AND type = OLD.type
                              AND status = OLD.status AND payment_method = OLD.payment_method
                              AND card_brand = COALESCE(OLD.card_brand, 'UNKNOWN');
                        DELETE FROM transaction_hours
                            WHERE terminal_id = OLD.terminal_id AND hour = OLD.created_at / 3600000 AND type = OLD.type
                              AND status = OLD.status AND payment_method = OLD.payment_method
                              AND card_brand = COALESCE(OLD.card_brand, 'UNKNOWN') AND n = 0;
                        UPDATE transaction_days SET n = n - 1, amount = amount - OLD.amount
                            WHERE terminal_id = OLD.terminal_id AND day = OLD.created_at / 86400000 AND type = OLD.type
                              AND status = OLD.status AND payment_method = OLD.payment_method
                              AND card_brand = COALESCE(OLD.card_brand, 'UNKNOWN');
                        DELETE FROM transaction_days
                            WHERE terminal_id = OLD.terminal_id AND day = OLD.created_at / 86400000 AND type = OLD.type
                              AND status = OLD.status AND payment_method = OLD.payment_method
                              AND card_brand = COALESCE(OLD.card_brand, 'UNKNOWN') AND n = 0;
                    END IF;
                    IF TG_OP IN ('INSERT', 'UPDATE') THEN
                        INSERT INTO transaction_hours AS h (terminal_id, hour, type, status, payment_method, card_brand, n, amount)
                            VALUES (NEW.terminal_id, NEW.created_at / 3600000, NEW.type, NEW.status, NEW.payment_method,
                                    COALESCE(NEW.card_brand, 'UNKNOWN'), 1, NEW.amount)
                            ON CONFLICT (terminal_id, hour, type, status, payment_method, card_brand)
                            DO UPDATE SET n = h.n + 1, amount = h.amount + excluded.amount;
                        INSERT INTO transaction_days AS d (terminal_id, day, type, status, payment_method, card_brand, n, amount)
                            VALUES (NEW.terminal_id, NEW.created_at / 86400000, NEW.type, NEW.status, NEW.payment_method,
                                    COALESCE(NEW.card_brand, 'UNKNOWN'), 1, NEW.amount)
                            ON CONFLICT (terminal_id, day, type, status, payment_method, card_brand)
                            DO UPDATE SET n = d.n + 1, amount = d.amount + excluded.amount;
                    END IF;
                    RETURN NULL;
                END $$;
                CREATE TRIGGER transactions_rollup_insert AFTER INSERT OR DELETE ON transactions
                    FOR EACH ROW EXECUTE FUNCTION transactions_rollup();
                CREATE TRIGGER transactions_rollup_update AFTER UPDATE ON transactions FOR EACH ROW
                    WHEN (OLD.terminal_id IS DISTINCT FROM NEW.terminal_id
                          OR OLD.created_at / 3600000 IS DISTINCT FROM NEW.created_at / 3600000
                          OR OLD.type IS DISTINCT FROM NEW.type OR OLD.status IS DISTINCT FROM NEW.status
                          OR OLD.payment_method IS DISTINCT FROM NEW.payment_method
                          OR OLD.card_brand IS DISTINCT FROM NEW.card_brand OR OLD.amount IS DISTINCT FROM NEW.amount)
                    EXECUTE FUNCTION transactions_rollup();
                CREATE TABLE apm_notifications (
                    id             TEXT PRIMARY KEY,
                    type           TEXT NOT NULL,
                    transaction_id TEXT NOT NULL,
                    received_at    BIGINT NOT NULL
                );
                CREATE TABLE wallet_calls (
                    seq             BIGSERIAL PRIMARY KEY,
                    kind            TEXT NOT NULL CHECK (kind IN ('close', 'refund')),
                    transaction_id  TEXT NOT NULL,
                    path            TEXT NOT NULL,
                    body            BYTEA NOT NULL,
                    created_at      BIGINT NOT NULL,
                    state           TEXT NOT NULL CHECK (state IN ('pending', 'answered')),
                    attempts        BIGINT NOT NULL DEFAULT 0,
                    next_attempt_at BIGINT NOT NULL,
                    last_status     BIGINT,
                    last_error      TEXT,
                    answered_at     BIGINT
                );
                CREATE INDEX wallet_calls_due ON wallet_calls(next_attempt_at) WHERE state = 'pending';
                CREATE TABLE card_reads (
                    read_id TEXT PRIMARY KEY,
                    read_at BIGINT NOT NULL,
                    used_at BIGINT NOT NULL
                );
                CREATE TABLE customer_turns (
                    id          BIGSERIAL PRIMARY KEY,
                    terminal_id TEXT NOT NULL,
                    turn        TEXT NOT NULL
                );
                CREATE INDEX customer_turns_by_terminal ON customer_turns(terminal_id, id);
                """),
        Migration(version: 14, name: "webhook claims", sql: Self.webhookClaims),
        Migration(version: 15, name: "attempt failures", sql: Self.attemptFailures),
        Migration(version: 16, name: "request journal", sql: """
            CREATE TABLE request_journal (
                seq        BIGSERIAL PRIMARY KEY,
                surface    TEXT NOT NULL,
                request_id TEXT NOT NULL,
                entry      TEXT NOT NULL
            );
            CREATE INDEX request_journal_by_surface ON request_journal(surface, seq);
            CREATE INDEX request_journal_by_request ON request_journal(request_id);
            """),
    ]

    /// The migrations of `engine`.
    package static func migrations(for engine: Connection.Engine) -> [Migration] {
        engine == .sqlite ? migrations : postgresMigrations
    }
}
