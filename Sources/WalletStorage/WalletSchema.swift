import SandboxStore

/// The wallet's SQLite schema (`<data-dir>/wallet.sqlite`). Times on the wallet's clock are
/// milliseconds since 1970 (`*_at`); those of the outbox are real time, because deliveries are
/// retried in real time whatever the sandbox clock says.
package enum WalletSchema {
    package static let migrations: [Migration] = [
        Migration(version: 1, name: "orders, refunds, standing rules, notification outbox", sql: """
            CREATE TABLE orders(
                order_id TEXT PRIMARY KEY,
                region TEXT NOT NULL,
                merchant_id TEXT NOT NULL,
                merchant_name TEXT NOT NULL,
                terminal_id TEXT NOT NULL,
                amount INTEGER NOT NULL,
                currency TEXT NOT NULL,
                brand TEXT NOT NULL,
                brand_full_name TEXT,
                reference TEXT,
                status TEXT NOT NULL,
                pay_url TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                payment_id TEXT,
                reason TEXT,
                request TEXT NOT NULL,
                plan_action TEXT,
                plan_reason TEXT,
                plan_due_at INTEGER
            );
            CREATE INDEX orders_by_creation ON orders(created_at);
            CREATE INDEX orders_open ON orders(expires_at) WHERE status IN ('pending', 'scanned');
            CREATE INDEX orders_planned ON orders(plan_due_at) WHERE plan_due_at IS NOT NULL;
            CREATE TABLE refunds(
                refund_id TEXT PRIMARY KEY,
                order_id TEXT NOT NULL REFERENCES orders(order_id),
                region TEXT NOT NULL,
                amount INTEGER NOT NULL,
                reference TEXT,
                status TEXT NOT NULL,
                reason TEXT,
                provider_id TEXT,
                outcome TEXT NOT NULL,
                outcome_reason TEXT,
                due_at INTEGER NOT NULL,
                created_at INTEGER NOT NULL,
                request TEXT NOT NULL
            );
            CREATE INDEX refunds_by_order ON refunds(order_id);
            CREATE INDEX refunds_due ON refunds(due_at) WHERE status = 'pending';
            CREATE TABLE rules(
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                rule_id TEXT NOT NULL UNIQUE,
                applies_to TEXT NOT NULL,
                region TEXT,
                merchant_id TEXT,
                terminal_id TEXT,
                action TEXT NOT NULL,
                reason TEXT,
                after_seconds REAL NOT NULL,
                remaining INTEGER,
                created_at INTEGER NOT NULL
            );
            CREATE TABLE outbox(
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                id TEXT NOT NULL UNIQUE,
                region TEXT NOT NULL,
                order_id TEXT NOT NULL,
                type TEXT NOT NULL,
                body BLOB NOT NULL,
                state TEXT NOT NULL DEFAULT 'pending',
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at INTEGER NOT NULL,
                last_status INTEGER,
                last_error TEXT
            );
            CREATE INDEX outbox_pending ON outbox(next_attempt_at) WHERE state = 'pending';
            CREATE INDEX outbox_pending_by_order ON outbox(order_id, seq) WHERE state = 'pending';
            """),
        Migration(version: 2, name: "BLIK: the bank's customers, their codes, the customer and charge of an order", sql: """
            ALTER TABLE orders ADD COLUMN customer_id TEXT;
            ALTER TABLE orders ADD COLUMN charged INTEGER NOT NULL DEFAULT 0;
            CREATE INDEX orders_by_customer ON orders(customer_id, created_at) WHERE customer_id IS NOT NULL;
            CREATE TABLE blik_customers(
                customer_id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                bank TEXT NOT NULL,
                currency TEXT NOT NULL,
                balance INTEGER NOT NULL,
                per_payment_limit INTEGER NOT NULL
            );
            CREATE TABLE blik_codes(
                code TEXT PRIMARY KEY,
                verification_code TEXT,
                customer_id TEXT NOT NULL REFERENCES blik_customers(customer_id),
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                order_id TEXT
            );
            """),
        Migration(version: 3, name: "the outbox: when each notification was written and when its host answered", sql: """
            ALTER TABLE outbox ADD COLUMN created_at INTEGER;
            ALTER TABLE outbox ADD COLUMN answered_at INTEGER;
            """),
        Migration(version: 4, name: "the wallet's own settings: its clock's offset, kept across a restart", sql: """
            CREATE TABLE wallet_state (
                key   TEXT PRIMARY KEY,
                value TEXT NOT NULL
            ) STRICT;
            """),
    ]
}
