import HostStorage
import Foundation
import SandboxCore
import SandboxStore

/// What the back office sees and does of webhooks (the delivery log, replay, a merchant's
/// endpoint settings), and the sample events sandbox control makes a host emit.
package struct WebhookLog: Sendable {
    package let lifecycle: Lifecycle
    package let payments: CardPayments
    package let outbox: Outbox

    package var store: Store { lifecycle.store }

    package typealias Event = WebhookEventRecord


    package struct Settings: Codable, Sendable {
        package let merchantId: String
        /// Null: the host's default receiver (the sandbox inbox under `sandbox up`).
        package let url: String?
        package let scheme: String
        /// The Standard Webhooks secret; MONEI signatures use the merchant's API key.
        package let secret: String
        package let disabled: Bool
        /// After a rotation: the secret before it, which signs too until `previousSecretExpiresAt`.
        package let previousSecret: String?
        package let previousSecretExpiresAt: String?

        package init(merchant: String, _ endpoint: Outbox.Endpoint, at now: Int64) {
            merchantId = merchant
            url = endpoint.url
            scheme = endpoint.scheme
            secret = endpoint.secret
            disabled = endpoint.disabled
            let overlapping = (endpoint.previousSecretExpiresAt ?? 0) > now
            previousSecret = overlapping ? endpoint.previousSecret : nil
            previousSecretExpiresAt = overlapping ? endpoint.previousSecretExpiresAt.map(Wire.time) : nil
        }
    }


    /// The latest events (without payloads), of one merchant or of all.
    package func events(merchant: String?, limit: Int) throws -> [Event] {
        try store.read { db in try db.webhooks.events(merchant: merchant, limit: limit) }
    }

    /// One event with its payload and delivery log.
    package func event(_ id: String) throws -> Event {
        try store.read { db in
            guard let event = try db.webhooks.event(id) else { throw WebhookError.eventNotFound }
            return event
        }
    }

    /// Sends an event again, as soon as the dispatcher looks.
    package func replay(_ id: String) throws {
        let now = lifecycle.now()
        try store.write { db in
            guard try db.webhooks.replay(id, at: now) else { throw WebhookError.eventNotFound }
        }
    }

    /// A merchant's settings, created (MONEI, to the default receiver) on first use.
    package func settings(merchant: String) throws -> Settings {
        try checkMerchant(merchant)
        let now = lifecycle.now()
        let endpoint = try store.write { db in try outbox.endpoint(db, merchant: merchant, at: now) }
        return Settings(merchant: merchant, endpoint, at: now)
    }

    /// Refuses a merchant the fixtures do not have (`merchant_not_found`).
    package func checkMerchant(_ merchant: String) throws {
        guard lifecycle.directory.merchants[merchant] != nil else { throw LifecycleError.merchantNotFound }
    }

    /// Saves a merchant's settings, which also turns an endpoint disabled by a 410 back on.
    ///
    /// - Parameters:
    ///   - merchant: checked by the caller (``checkMerchant(_:)``) before it reads the body.
    ///   - url: checked by the caller (``Outbox/refusal(of:)``).
    package func saveSettings(merchant: String, url: String?, scheme: String) throws -> Settings {
        let now = lifecycle.now()
        let endpoint = try store.write { db in
            _ = try outbox.endpoint(db, merchant: merchant, at: now)
            try db.webhooks.updateEndpoint(merchant: merchant, url: url, scheme: scheme, at: now)
            return try outbox.endpoint(db, merchant: merchant, at: now)
        }
        return Settings(merchant: merchant, endpoint, at: now)
    }

    /// A new Standard Webhooks secret for `merchant`; the old one keeps signing beside it for
    /// `overlapSeconds` (0 to 30 days) on the host clock, so receivers can switch without losing a delivery.
    package func rotateSecret(merchant: String, overlapSeconds: Int) throws -> Settings {
        try checkMerchant(merchant)
        let now = lifecycle.now()
        let endpoint = try store.write { db in
            _ = try outbox.endpoint(db, merchant: merchant, at: now)
            try db.webhooks.rotateSecret(
                merchant: merchant, to: outbox.newSecret(), previousExpiresAt: now + Int64(overlapSeconds) * 1000, at: now)
            return try outbox.endpoint(db, merchant: merchant, at: now)
        }
        return Settings(merchant: merchant, endpoint, at: now)
    }

    /// Emits a sample event (``CardPayments/sample(_:merchant:terminal:at:)``) of `merchant`, or of the
    /// first merchant by id, to its endpoint.
    ///
    /// - Parameter event: one of ``CardPayments/sampleEvents``.
    /// - Returns: the event's id.
    package func trigger(_ event: String, merchant: String?) throws -> String {
        guard let merchant = merchant ?? lifecycle.directory.merchants.keys.sorted().first,
            let fixture = lifecycle.directory.merchants[merchant], let terminal = fixture.terminals.first
        else { throw LifecycleError.merchantNotFound }
        let now = lifecycle.now()
        let sample = try payments.sample(event, merchant: merchant, terminal: terminal.id, at: now)
        return try store.write { db in
            try outbox.record(db, sample, type: event, at: now)
            guard let id = try db.webhooks.latestEvent(transaction: sample.id) else {
                throw WebhookError.noWebhookEndpoint
            }
            return id
        }
    }

    package init(lifecycle: Lifecycle, payments: CardPayments, outbox: Outbox) {
        self.lifecycle = lifecycle
        self.payments = payments
        self.outbox = outbox
    }
}
