import Foundation
import SandboxCore
import SandboxStore
import SandboxWire

// The records the repositories read and write, which the rules (HostRules' Lifecycle, Outbox,
// WebhookLog, Dispatcher, CardPayments) name by their own names.

/// Times on the host's wire, in ``WireTime``'s format: whole seconds in UTC.
package enum Wire {
    package static func time(_ milliseconds: Int64) -> String {
        WireTime.string(milliseconds: milliseconds, precision: .seconds)
    }

    package static func unix(_ milliseconds: Int64) -> Double { Double(milliseconds) / 1000 }

    /// An ISO 8601 date and time with an offset or `Z`, with or without fractional seconds.
    ///
    /// A space where the offset's `+` belongs is read as `+`: in a query string an unencoded `+`
    /// arrives as a space.
    package static func parse(_ text: String) -> Date? {
        // RFC 3339 allows a lower-case `t` and `z`.
        WireTime.date(from: text.replacingOccurrences(of: " ", with: "+").uppercased())
    }
}

/// How long what the host stores lasts.
package enum Lifetimes {
    /// Certificates expire after three months without a login.
    package static let certificate: Int64 = 90 * 24 * 60 * 60 * 1000
}

/// A device as stored.
package struct DeviceRecord: Sendable {
    package let id: String
    package let model: String
    package let terminalID: String?
    package let registered: Bool
    package let secretHash: String
    package let pinSalt: String?
    package let pinHash: String?
    package let failedAttempts: Int
    package let locked: Bool
    package let registeredAt: Int64
    package let lastLoginAt: Int64?
}

/// A terminal as stored, with its fixture.
package struct TerminalRecord: Sendable {
    package let id: String
    package let merchantID: String
    package let profile: TerminalProfile

    package init(id: String, merchantID: String, profile: TerminalProfile) {
        self.id = id
        self.merchantID = merchantID
        self.profile = profile
    }
}

/// A terminal and its device, as the portal and merchant backends see them.
package struct TerminalState: Codable, Sendable {
    package let terminalId: String
    package let merchantId: String
    package let registered: Bool
    package let locked: Bool
    package let deviceId: String?
    package let deviceModel: String?
    package let failedAttempts: Int
    package let lastLoginAt: String?
    package let registerOptions: [String]
    package let autoLogin: Bool
    /// Since when the device is registered.
    package let registeredAt: String?
    /// When the device's current session ends, while one runs.
    package let sessionEndsAt: String?
    /// Three months after the last login (or the registration): the device is unregistered then.
    package let certificatesExpireAt: String?
    /// Until when an unused registration token locks the terminal against registration by challenge code.
    package let tokenLockedUntil: String?
}

/// A mail of the back-office mailbox, as stored.
package struct Mail: Sendable {
    package let id: Int
    package let to: String
    package let subject: String
    package let body: String
    /// What the mail shows as a QR code (a registration token's app link), or nil.
    package let qrPayload: String?
    package let createdAt: String

    package init(id: Int, to: String, subject: String, body: String, qrPayload: String?, createdAt: String) {
        self.id = id
        self.to = to
        self.subject = subject
        self.body = body
        self.qrPayload = qrPayload
        self.createdAt = createdAt
    }
}

/// One event of the webhook outbox.
package struct WebhookEventRecord: Codable, Sendable {
    package struct Attempt: Codable, Sendable {
        package let attempt: Int
        package let at: String
        package let status: Int?
        package let latencyMs: Double
        package let error: String?
        package let responseExcerpt: String?
    }

    package let id: String
    package let type: String
    package let merchantId: String
    package let transactionId: String?
    /// The amount of the payment it reports (minor units, tip included), in `currency`; none for a sample event.
    package let amount: Int?
    package let currency: String?
    package let url: String
    package let scheme: String
    package let state: String
    package let attempts: Int
    package let createdAt: String
    package let nextAttemptAt: String?
    package let deliveredAt: String?
    package let payload: String?
    package let log: [Attempt]?
}

/// A merchant's webhook endpoint as stored.
package struct WebhookEndpoint: Codable, Sendable {
    package let url: String?
    package let scheme: String
    /// The Standard Webhooks secret (`whsec_…`); MONEI signs with the merchant's apiKey instead.
    package let secret: String
    package let disabled: Bool
    /// The secret before the last rotation, and until when it signs too.
    package var previousSecret: String? = nil
    package var previousSecretExpiresAt: Int64? = nil

    package init(url: String?, scheme: String, secret: String, disabled: Bool, previousSecret: String? = nil, previousSecretExpiresAt: Int64? = nil) {
        self.url = url
        self.scheme = scheme
        self.secret = secret
        self.disabled = disabled
        self.previousSecret = previousSecret
        self.previousSecretExpiresAt = previousSecretExpiresAt
    }
}

/// A webhook event due for delivery, with what signs it.
package struct DueWebhook: Sendable {
    package let id: String
    package let merchant: String
    package let url: String
    package let scheme: String
    package let body: [UInt8]
    package let attempts: Int
    package let secret: String
    /// A rotated secret still in its overlap: Standard Webhooks deliveries carry its signature too.
    package let previousSecret: String?
}

/// Which transactions of a terminal a history page or count reads.
package struct HistoryFilter: Sendable {
    package var page = 1
    package var itemsPerPage = 20
    package var from: Int64 = 0
    package var to: Int64 = .max
    package var statuses: [String] = []
    package var types: [String] = []
    package var paymentMethods: [String] = []

    package init() {}
}
