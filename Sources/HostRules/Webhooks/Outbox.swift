import FastJSON
import HostStorage
import Foundation
import SandboxCore
import SandboxCrypto
import SandboxHTTPClient
import SandboxStore

/// Webhook events written in the same database transaction as the payment change they report.
///
/// A final payment, refund, reversal or DCC outcome adds one event to `webhook_events`; the
/// dispatcher delivers it later. Because the event commits with the change, a host killed at any
/// moment either has both or neither, and a pending event survives restarts.
package struct Outbox: Sendable {
    /// Where a merchant's events go when neither the payment nor the merchant names an endpoint
    /// (`sandbox up` points every merchant at its inbox); nil: nowhere.
    package let defaultURL: (@Sendable (_ merchant: String) -> String?)?
    package let flavour: Flavour
    package let random: any RandomSource
    /// Where a client's URL may point: public unicast addresses (and loopback on the sandbox and
    /// uat flavours), checked at input here and again at every delivery by the ``Dispatcher``.
    package let destinations: PublicAddress

    /// The address rule of a flavour: sandbox and uat let a developer's local receiver (loopback) in.
    package static func destinations(_ flavour: Flavour, resolver: @escaping PublicAddress.Resolver) -> PublicAddress {
        PublicAddress(allowsLoopback: flavour == .sandbox || flavour == .uat, resolver: resolver)
    }

    /// The JSON every event carries (documented in openapi/environment-host.yaml as a webhook).
    package struct Payload: Codable, Sendable {
        package struct Payment: Codable, Sendable {
            package let paymentId: String
            package let orderId: String?
            package let type: String
            package let status: String
            package let amount: Int
            package let tipAmount: Int?
            package let currency: String
            package let cardBrand: String?
            package let last4: String?
            package let responseCode: String?
            package let terminalId: String
            package let merchantId: String
            package let originalPaymentId: String?
            package let dccAmount: Int?
            package let dccCurrency: String?
            /// `CARD`, `QRCODE` for a QR wallet payment (its brand in `cardBrand`), or `BLIK` (`cardBrand` BLIK).
            package let paymentMethod: String

            /// Every field is written, absent values as `null`, as the documented payload shows.
            package func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(paymentId, forKey: .paymentId)
                try container.encode(orderId, forKey: .orderId)
                try container.encode(type, forKey: .type)
                try container.encode(status, forKey: .status)
                try container.encode(amount, forKey: .amount)
                try container.encode(tipAmount, forKey: .tipAmount)
                try container.encode(currency, forKey: .currency)
                try container.encode(cardBrand, forKey: .cardBrand)
                try container.encode(last4, forKey: .last4)
                try container.encode(responseCode, forKey: .responseCode)
                try container.encode(terminalId, forKey: .terminalId)
                try container.encode(merchantId, forKey: .merchantId)
                try container.encode(originalPaymentId, forKey: .originalPaymentId)
                try container.encode(dccAmount, forKey: .dccAmount)
                try container.encode(dccCurrency, forKey: .dccCurrency)
                try container.encode(paymentMethod, forKey: .paymentMethod)
            }
        }

        package let id: String
        package let type: String
        /// Seconds since 1970 on the host's clock.
        package let created: Int64
        package let livemode: Bool
        package let data: Payment
    }

    /// The event type of a final state, or nil while the transaction is in flight.
    package static func eventType(_ record: TransactionRecord) -> String? {
        guard !TransactionStateMachine.isInFlight(record.status) else { return nil }
        switch (record.type, record.status) {
        case (.AUTH, .CLEARED), (.AUTH, .REFUNDED): return "payment.succeeded"
        // A reversal names its own type (`payment.canceled`); a card screen cancelled at the reader
        // (USER_CANCELLED without one) is a failed payment.
        case (.AUTH, .CANCELLED): return "payment.canceled"
        case (.AUTH, _): return "payment.failed"
        case (.REFUND, .CLEARED): return "refund.succeeded"
        case (.REFUND, _): return "refund.failed"
        }
    }

    /// Adds the event a transaction's new final state calls for (nothing while in flight, or when
    /// the merchant has nowhere to receive webhooks).
    package func record(_ db: Connection, _ record: TransactionRecord, type: String? = nil, at now: Int64) throws {
        guard let type = type ?? record.eventType ?? Self.eventType(record) else { return }
        let endpoint = try self.endpoint(db, merchant: record.merchantID, at: now)
        guard let url = record.callbackURL ?? endpoint.url ?? defaultURL?(record.merchantID) else { return }
        let id = "evt_" + Hex.encode(random.bytes(count: 12))
        let payload = Payload(
            id: id, type: type, created: now / 1000, livemode: false,
            data: .init(
                paymentId: record.id, orderId: record.reference, type: record.type.rawValue, status: record.status.rawValue,
                amount: record.amount, tipAmount: record.tipAmount, currency: record.currency, cardBrand: record.cardBrand,
                last4: record.maskedPAN.map { String($0.suffix(4)) }, responseCode: record.responseCode,
                terminalId: record.terminalID, merchantId: record.merchantID, originalPaymentId: record.originalID,
                dccAmount: record.dccStatus == .ACCEPTED ? record.dccAmount : nil,
                dccCurrency: record.dccStatus == .ACCEPTED ? record.dccCurrency : nil, paymentMethod: record.paymentMethod.rawValue))
        let disabled = record.callbackURL == nil && endpoint.disabled
        try enqueue(
            db, id: id, type: type, merchant: record.merchantID, transaction: record.id, url: url, scheme: endpoint.scheme,
            disabled: disabled, body: try SortedJSONEncoder.encode(payload), at: now)
    }

    /// Ends in-flight transactions as TIMEOUT (their deadline passed, or their device left) and
    /// reports each one's outcome; a QR order is closed at the wallet too, so a customer who pays
    /// later is refused and never charged.
    package func timeOut(_ db: Connection, _ records: [TransactionRecord], message: String?, at now: Int64) throws {
        for var record in records {
            if record.paymentMethod == .CARD {
                record.move(to: .TIMEOUT, by: .deadline, at: now)
                record.responseMessage = message ?? record.responseMessage ?? "Timed out"
            } else {
                record.moveAPM(to: .TIMEOUT, by: .deadline, at: now)
                let limit = record.paymentMethod == .BLIK ? "blikTimeout" : "apmTimeout"
                record.responseMessage =
                    message ?? (record.type == .AUTH ? "The order was not paid within \(limit)" : "The wallet did not answer within apmRefundTimeout")
                if record.type == .AUTH { try WalletCalls.close(db, order: record.id, reason: "expired", at: now) }
            }
            try record.save(db, at: now)
            try self.record(db, record, at: now)
        }
    }

    /// Writes one event for delivery (or as `disabled` when the merchant's receiver answered 410).
    package func enqueue(
        _ db: Connection, id: String, type: String, merchant: String, transaction: String?, url: String, scheme: String,
        disabled: Bool, body: [UInt8], at now: Int64
    ) throws {
        try db.webhooks.enqueue(
            id: id, type: type, merchant: merchant, transaction: transaction, url: url, scheme: scheme, disabled: disabled, body: body,
            at: now)
    }


    package typealias Endpoint = WebhookEndpoint

    /// A fresh Standard Webhooks secret, `whsec_` and 24 random bytes in base64.
    package func newSecret() -> String {
        "whsec_" + Base64.encode(random.bytes(count: 24))
    }

    /// A merchant's webhook settings, created (MONEI, a fresh `whsec_` secret) on first use.
    package func endpoint(_ db: Connection, merchant: String, at now: Int64) throws -> Endpoint {
        if let stored = try db.webhooks.endpoint(merchant: merchant) { return stored }
        let secret = newSecret()
        try db.webhooks.addEndpoint(merchant: merchant, secret: secret, at: now)
        return Endpoint(url: nil, scheme: "monei", secret: secret, disabled: false)
    }

    // MARK: - Callback URL rules

    /// MONEI's rules for a `callbackUrl`: https, at most 2048 characters, a host that is no private
    /// or loopback address. The sandbox and uat flavours also accept http on loopback, so a
    /// developer's local receiver works.
    ///
    /// The host is resolved (``PublicAddress``): a name with any non-public address is refused,
    /// however the URL spells it; a name that does not resolve now is accepted and checked again
    /// at each delivery. It resolves, so call it outside a database transaction.
    ///
    /// - Returns: nil when acceptable, else why not.
    package func refusal(of text: String) -> String? {
        guard text.utf8.count <= 2048 else { return "callbackUrl is longer than 2048 characters" }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            return "callbackUrl is not an absolute URL"
        }
        guard scheme == "http" || scheme == "https" else { return "callbackUrl must use https" }
        let destination: PublicAddress.Destination
        do {
            destination = try destinations.check(text, unresolved: .accept)
        } catch {
            return "callbackUrl must point at a public address: \(error.reason)"
        }
        if destinations.allowsLoopback && destination.isLoopback { return nil }
        guard scheme == "https" else { return "callbackUrl must use https" }
        return nil
    }

    package init(defaultURL: (@Sendable (_ merchant: String) -> String?)?, flavour: Flavour, random: any RandomSource, destinations: PublicAddress) {
        self.defaultURL = defaultURL
        self.flavour = flavour
        self.random = random
        self.destinations = destinations
    }
}
