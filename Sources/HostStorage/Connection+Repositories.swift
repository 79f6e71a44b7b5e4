import SandboxStore

/// The host's repositories over the connection of the read or write under way.
///
/// The rules decide where a transaction begins and ends (`store.write { db in … }`, one per
/// request, so a sale is still one write transaction); every SQL statement they run is a
/// repository method named after what it does, with typed arguments and typed rows.
package extension Connection {
    var host: HostRepository { HostRepository(db: self) }
    var terminals: TerminalRepository { TerminalRepository(db: self) }
    var sessions: SessionRepository { SessionRepository(db: self) }
    var registrations: RegistrationRepository { RegistrationRepository(db: self) }
    var mailbox: MailboxRepository { MailboxRepository(db: self) }
    var transactions: TransactionRepository { TransactionRepository(db: self) }
    var webhooks: WebhookRepository { WebhookRepository(db: self) }
    var apm: APMRepository { APMRepository(db: self) }
    var customers: CustomerRepository { CustomerRepository(db: self) }
}
