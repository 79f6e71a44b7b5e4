import SandboxStore

extension WalletSchema {
    /// The wallet's database on PostgreSQL: the schema the SQLite migrations reach at version 4,
    /// in PostgreSQL's dialect (`BIGINT` for every integer, `BIGSERIAL` for SQLite's rowid keys and
    /// for the `rowid` the repositories order by, `BYTEA` for blobs). A later change appends a
    /// migration to both lists.
    package static let postgresMigrations: [Migration] = [
        Migration(version: 4, name: "wallet schema 4 on PostgreSQL", sql: """
            CREATE TABLE orders(
                rowid BIGSERIAL,
                order_id TEXT PRIMARY KEY,
                region TEXT NOT NULL,
                merchant_id TEXT NOT NULL,
                merchant_name TEXT NOT NULL,
                terminal_id TEXT NOT NULL,
                amount BIGINT NOT NULL,
                currency TEXT NOT NULL,
                brand TEXT NOT NULL,
                brand_full_name TEXT,
                reference TEXT,
                status TEXT NOT NULL,
                pay_url TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                payment_id TEXT,
                reason TEXT,
                request TEXT NOT NULL,
                plan_action TEXT,
                plan_reason TEXT,
                plan_due_at BIGINT,
                customer_id TEXT,
                charged BIGINT NOT NULL DEFAULT 0
            );
            CREATE INDEX orders_by_creation ON orders(created_at);
            CREATE INDEX orders_open ON orders(expires_at) WHERE status IN ('pending', 'scanned');
            CREATE INDEX orders_planned ON orders(plan_due_at) WHERE plan_due_at IS NOT NULL;
            CREATE INDEX orders_by_customer ON orders(customer_id, created_at) WHERE customer_id IS NOT NULL;
            CREATE TABLE refunds(
                refund_id TEXT PRIMARY KEY,
                order_id TEXT NOT NULL REFERENCES orders(order_id),
                region TEXT NOT NULL,
                amount BIGINT NOT NULL,
                reference TEXT,
                status TEXT NOT NULL,
                reason TEXT,
                provider_id TEXT,
                outcome TEXT NOT NULL,
                outcome_reason TEXT,
                due_at BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                request TEXT NOT NULL
            );
            CREATE INDEX refunds_by_order ON refunds(order_id);
            CREATE INDEX refunds_due ON refunds(due_at) WHERE status = 'pending';
            CREATE TABLE rules(
                seq BIGSERIAL PRIMARY KEY,
                rule_id TEXT NOT NULL UNIQUE,
                applies_to TEXT NOT NULL,
                region TEXT,
                merchant_id TEXT,
                terminal_id TEXT,
                action TEXT NOT NULL,
                reason TEXT,
                after_seconds DOUBLE PRECISION NOT NULL,
                remaining BIGINT,
                created_at BIGINT NOT NULL
            );
            CREATE TABLE outbox(
                seq BIGSERIAL PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                region TEXT NOT NULL,
                order_id TEXT NOT NULL,
                type TEXT NOT NULL,
                body BYTEA NOT NULL,
                state TEXT NOT NULL DEFAULT 'pending',
                attempts BIGINT NOT NULL DEFAULT 0,
                next_attempt_at BIGINT NOT NULL,
                last_status BIGINT,
                last_error TEXT,
                created_at BIGINT,
                answered_at BIGINT
            );
            CREATE INDEX outbox_pending ON outbox(next_attempt_at) WHERE state = 'pending';
            CREATE INDEX outbox_pending_by_order ON outbox(order_id, seq) WHERE state = 'pending';
            CREATE TABLE blik_customers(
                rowid BIGSERIAL,
                customer_id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                bank TEXT NOT NULL,
                currency TEXT NOT NULL,
                balance BIGINT NOT NULL,
                per_payment_limit BIGINT NOT NULL
            );
            CREATE TABLE blik_codes(
                code TEXT PRIMARY KEY,
                verification_code TEXT,
                customer_id TEXT NOT NULL REFERENCES blik_customers(customer_id),
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                order_id TEXT
            );
            CREATE TABLE wallet_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            """),
    ]
}
