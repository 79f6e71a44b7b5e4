import SandboxStore
import SandboxWire

/// All SQL of the BLIK bank: its customers' balances and the codes their bank app issued.
package struct BlikRepository {
    package let db: Connection

    /// One issued code, as the wallet keeps it.
    package struct CodeRow: Sendable, Equatable {
        package var code: String
        package var verificationCode: String?
        package var customerId: String
        package var createdAt: Int64
        package var expiresAt: Int64
        /// The order that spent it; nil while unused.
        package var orderId: String?

        package init(code: String, verificationCode: String?, customerId: String, createdAt: Int64, expiresAt: Int64, orderId: String?) {
            self.code = code
            self.verificationCode = verificationCode
            self.customerId = customerId
            self.createdAt = createdAt
            self.expiresAt = expiresAt
            self.orderId = orderId
        }
    }

    /// Adds the fixtures the database does not have yet: a restart keeps the balances it had.
    package func seed(_ customers: [WalletBlik.Customer]) throws {
        for customer in customers {
            try db.run(
                "INSERT OR IGNORE INTO blik_customers(customer_id, name, bank, currency, balance, per_payment_limit) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    .text(customer.customerId), .text(customer.name), .text(customer.bank), .text(customer.currency),
                    .integer(Int64(customer.balance)), .integer(Int64(customer.perPaymentLimit)),
                ])
        }
    }

    /// A seed's customer: made, or the one of that id given its name, bank, currency, balance and limit.
    package func upsert(_ customer: WalletBlik.Customer) throws {
        try db.run(
            """
            INSERT INTO blik_customers(customer_id, name, bank, currency, balance, per_payment_limit) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(customer_id) DO UPDATE SET name = excluded.name, bank = excluded.bank, currency = excluded.currency,
                balance = excluded.balance, per_payment_limit = excluded.per_payment_limit
            """,
            [
                .text(customer.customerId), .text(customer.name), .text(customer.bank), .text(customer.currency),
                .integer(Int64(customer.balance)), .integer(Int64(customer.perPaymentLimit)),
            ])
    }

    package func customers() throws -> [WalletBlik.Customer] {
        try db.query("SELECT customer_id, name, bank, currency, balance, per_payment_limit FROM blik_customers ORDER BY rowid").map(Self.customer)
    }

    package func customer(_ customerId: String) throws -> WalletBlik.Customer? {
        try db.query(
            "SELECT customer_id, name, bank, currency, balance, per_payment_limit FROM blik_customers WHERE customer_id = ?",
            [.text(customerId)]
        ).first.map(Self.customer)
    }

    /// Adds `amount` (negative: takes it) to the customer's balance.
    package func move(_ customerId: String, by amount: Int) throws {
        try db.run("UPDATE blik_customers SET balance = balance + ? WHERE customer_id = ?", [.integer(Int64(amount)), .text(customerId)])
    }

    package func insert(_ code: CodeRow) throws {
        try db.run(
            "INSERT INTO blik_codes(code, verification_code, customer_id, created_at, expires_at, order_id) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(code.code), code.verificationCode.databaseValue, .text(code.customerId), .integer(code.createdAt),
                .integer(code.expiresAt), code.orderId.databaseValue,
            ])
    }

    package func code(_ code: String) throws -> CodeRow? {
        try db.query(
            "SELECT code, verification_code, customer_id, created_at, expires_at, order_id FROM blik_codes WHERE code = ?", [.text(code)]
        ).first.map { row in
            CodeRow(
                code: try row["code"], verificationCode: try row["verification_code"], customerId: try row["customer_id"],
                createdAt: try row["created_at"], expiresAt: try row["expires_at"], orderId: try row["order_id"])
        }
    }

    /// Spends the code on an order.
    package func spend(_ code: String, orderId: String) throws {
        try db.run("UPDATE blik_codes SET order_id = ? WHERE code = ?", [.text(orderId), .text(code)])
    }

    /// Frees a code number once it is long past use (a new code may get it again).
    package func forget(_ code: String) throws {
        try db.run("DELETE FROM blik_codes WHERE code = ?", [.text(code)])
    }

    /// Forgets every code and puts the balances back as the fixtures have them (`POST /_sandbox/reset`).
    package func reset(to customers: [WalletBlik.Customer]) throws {
        try db.run("DELETE FROM blik_codes")
        try db.run("DELETE FROM blik_customers")
        try seed(customers)
    }

    private static func customer(_ row: Row) throws -> WalletBlik.Customer {
        WalletBlik.Customer(
            customerId: try row["customer_id"], name: try row["name"], bank: try row["bank"], currency: try row["currency"],
            balance: try row["balance"], perPaymentLimit: try row["per_payment_limit"])
    }
}
