import SandboxStore

/// The host's repositories over the connection of the read or write under way.
///
/// The rules decide where a transaction begins and ends (`store.write { db in … }`, one per
/// request, so a sale is still one write transaction); every SQL statement they run is a
/// repository method named after what it does, with typed arguments and typed rows.
package extension Connection {
    package var host: HostRepository { HostRepository(db: self) }
    package var terminals: TerminalRepository { TerminalRepository(db: self) }
    package var sessions: SessionRepository { SessionRepository(db: self) }
    package var registrations: RegistrationRepository { RegistrationRepository(db: self) }
    package var mailbox: MailboxRepository { MailboxRepository(db: self) }
    package var transactions: TransactionRepository { TransactionRepository(db: self) }
    package var webhooks: WebhookRepository { WebhookRepository(db: self) }
    package var apm: APMRepository { APMRepository(db: self) }
    package var customers: CustomerRepository { CustomerRepository(db: self) }
}
