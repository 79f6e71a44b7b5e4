/// A seed: the state a test starts from, applied whole or not at all (`sandbox up --seed FILE`,
/// `sandbox seed FILE`, `POST /_sandbox/seed`). Its schema is `sandbox-data/seeds/seed.schema.json`.
///
/// ```json
/// {"regions": {"EU": {
///   "devices": [{"terminalId": "EU-T0101", "secureCode": "2468", "loggedIn": true}],
///   "transactions": [{"terminalId": "EU-T0101", "amount": 2500, "status": "CLEARED", "secondsAgo": 86400}],
///   "webhooks": [{"merchantId": "EU-M01", "url": "http://127.0.0.1:4242/hooks", "scheme": "standard"}]}}}
/// ```
public struct SandboxSeed: Codable, Sendable, Equatable {
    /// Each region's part, by region id (`EU`, `MONEI`, …); its host applies it.
    public var regions: [String: HostSeed]
    /// The wallet's part: its BLIK customers and standing rules.
    public var wallet: WalletSeed?

    public init(regions: [String: HostSeed], wallet: WalletSeed? = nil) {
        self.regions = regions
        self.wallet = wallet
    }

    static let fields: Set<String> = ["$schema", "regions", "wallet"]

    /// The path of the first member that no seed has (`regions.EU.devices[0].terminalID`), or nil.
    ///
    /// Decoding skips members it does not know, so a misspelt field would be dropped without a
    /// word; a seed is refused instead.
    public static func unknownField(in json: Any) -> String? {
        guard let object = json as? [String: Any] else { return nil }
        if let key = object.keys.sorted().first(where: { !fields.contains($0) }) { return key }
        guard let regions = object["regions"] as? [String: Any] else { return nil }
        for region in regions.keys.sorted() {
            if let found = HostSeed.unknownField(in: regions[region]!, path: "regions.\(region)") { return found }
        }
        if let wallet = object["wallet"], let found = WalletSeed.unknownField(in: wallet, path: "wallet") { return found }
        return nil
    }
}

/// The wallet's part of a seed: BLIK customers (new ones, or the balance and limit of one of
/// `wallet.json`) and standing rules (as `POST /api/rules` makes them).
public struct WalletSeed: Codable, Sendable, Equatable {
    public var customers: [WalletBlik.Customer]?
    public var rules: [Rule]?

    public init(customers: [WalletBlik.Customer]? = nil, rules: [Rule]? = nil) {
        self.customers = customers
        self.rules = rules
    }

    /// A standing rule: the customer's answer to the orders (or refunds) it matches.
    public struct Rule: Codable, Sendable, Equatable {
        /// `orders` (default) or `refunds`.
        public var appliesTo: String?
        public var region: String?
        public var merchantId: String?
        public var terminalId: String?
        /// `approve`, `decline`, `expire` or `scanOnly`.
        public var action: String
        public var reason: String?
        public var afterSeconds: Double?
        /// Gone after this many orders; nil: stays.
        public var count: Int?

        public init(
            appliesTo: String? = nil, region: String? = nil, merchantId: String? = nil, terminalId: String? = nil, action: String,
            reason: String? = nil, afterSeconds: Double? = nil, count: Int? = nil
        ) {
            self.appliesTo = appliesTo
            self.region = region
            self.merchantId = merchantId
            self.terminalId = terminalId
            self.action = action
            self.reason = reason
            self.afterSeconds = afterSeconds
            self.count = count
        }

        static let fields: Set<String> = ["appliesTo", "region", "merchantId", "terminalId", "action", "reason", "afterSeconds", "count"]
    }

    static let fields: Set<String> = ["customers", "rules"]
    static let customerFields: Set<String> = ["customerId", "name", "bank", "currency", "balance", "perPaymentLimit"]

    /// The path of the first member that no wallet part has, below `path`, or nil.
    public static func unknownField(in json: Any, path: String = "") -> String? {
        func named(_ key: String) -> String { path.isEmpty ? key : path + "." + key }
        guard let object = json as? [String: Any] else { return nil }
        if let key = object.keys.sorted().first(where: { !fields.contains($0) }) { return named(key) }
        for (key, known) in [("customers", customerFields), ("rules", Rule.fields)] {
            guard let items = object[key] as? [Any] else { continue }
            for (index, item) in items.enumerated() {
                guard let member = item as? [String: Any] else { continue }
                if let bad = member.keys.sorted().first(where: { !known.contains($0) }) { return named("\(key)[\(index)].\(bad)") }
            }
        }
        return nil
    }
}

/// What the wallet answers to its part of a seed.
public struct WalletSeedResult: Codable, Sendable, Equatable {
    /// The customers made or changed, by id.
    public var customers: [String]
    /// The rules made, by id.
    public var rules: [String]

    public init(customers: [String], rules: [String]) {
        self.customers = customers
        self.rules = rules
    }
}

/// One region's part of a seed: what its host holds once the seed is applied.
public struct HostSeed: Codable, Sendable, Equatable {
    public var devices: [Device]?
    public var transactions: [Transaction]?
    public var webhooks: [Webhook]?
    public var qrOrders: [QROrder]?

    public init(devices: [Device]? = nil, transactions: [Transaction]? = nil, webhooks: [Webhook]? = nil, qrOrders: [QROrder]? = nil) {
        self.devices = devices
        self.transactions = transactions
        self.webhooks = webhooks
        self.qrOrders = qrOrders
    }

    /// A QR payment under way: made now, as a device's `doQRPayment` makes one, so its order waits at
    /// the wallet for the customer (scan, pay, decline, or let it expire at the terminal's
    /// `apmTimeout` on the sandbox clock) and the terminal is busy until it is final.
    public struct QROrder: Codable, Sendable, Equatable {
        /// A terminal of the region that takes QR payments (`apmEnabled`), with nothing in flight.
        public var terminalId: String
        /// Minor units in the terminal's currency, tip included.
        public var amount: Int
        public var tipAmount: Int?
        /// One of the terminal's active `apmConfig` brands (default: its first).
        public var brand: String?
        public var reference: String?

        public init(terminalId: String, amount: Int, tipAmount: Int? = nil, brand: String? = nil, reference: String? = nil) {
            self.terminalId = terminalId
            self.amount = amount
            self.tipAmount = tipAmount
            self.brand = brand
            self.reference = reference
        }

        static let fields: Set<String> = ["terminalId", "amount", "tipAmount", "brand", "reference"]
    }

    /// A device registered to a terminal, as `tapsim register` and the SDKs leave one.
    public struct Device: Codable, Sendable, Equatable {
        /// The terminal it is registered to: one of the region's, free.
        public var terminalId: String
        /// Its secure code (4 to 8 digits); without one, only an auto-login terminal lets it log in.
        public var secureCode: String?
        /// Logged in once applied: a session starts on the sandbox clock (600 s on `sandbox` hosts).
        public var loggedIn: Bool?
        /// The installation id the device sends (default `seed-` + the terminal id, lower-cased).
        public var installationId: String?
        /// Its device secret, `ds_` and 64 hex digits (default: a new one, in the answer).
        public var deviceSecret: String?
        /// The model it reports (default `iPhone15,2`).
        public var model: String?
        /// Where `sandbox up --seed` and `sandbox seed` write its `device.json`, relative to the folder
        /// they run in (default: `<data-dir>/devices/<region>`, where `tapsim` looks); hosts ignore it.
        public var folder: String?

        public init(
            terminalId: String, secureCode: String? = nil, loggedIn: Bool? = nil, installationId: String? = nil,
            deviceSecret: String? = nil, model: String? = nil, folder: String? = nil
        ) {
            self.terminalId = terminalId
            self.secureCode = secureCode
            self.loggedIn = loggedIn
            self.installationId = installationId
            self.deviceSecret = deviceSecret
            self.model = model
            self.folder = folder
        }

        static let fields: Set<String> = ["terminalId", "secureCode", "loggedIn", "installationId", "deviceSecret", "model", "folder"]
    }

    /// A payment in the terminal's history, placed `secondsAgo` before the sandbox clock's now. It
    /// sends no webhook: it happened before the test.
    public struct Transaction: Codable, Sendable, Equatable {
        public var terminalId: String
        /// Minor units in the terminal's currency, tip included.
        public var amount: Int
        public var tipAmount: Int?
        /// A status at rest: `CLEARED`, `DECLINED`, `REFUNDED` (with its cleared refund), `CANCELLED`,
        /// `REJECTED`, `TIMEOUT`, `USER_CANCELLED`, `ERROR` or `TERMINAL_DECLINED`.
        public var status: TransactionStatus
        /// `CARD` (default), `QRCODE` or `BLIK`.
        public var method: PaymentMethod?
        /// A card: the name of one in `sandbox-data/cards.json` (default `visa`). `CARD` only.
        public var card: String?
        /// A QR wallet's brand (`ALIPAY`, `WECHATPAY`, …). `QRCODE` only.
        public var brand: String?
        public var reference: String?
        public var secondsAgo: Int

        public init(
            terminalId: String, amount: Int, tipAmount: Int? = nil, status: TransactionStatus, method: PaymentMethod? = nil,
            card: String? = nil, brand: String? = nil, reference: String? = nil, secondsAgo: Int
        ) {
            self.terminalId = terminalId
            self.amount = amount
            self.tipAmount = tipAmount
            self.status = status
            self.method = method
            self.card = card
            self.brand = brand
            self.reference = reference
            self.secondsAgo = secondsAgo
        }

        static let fields: Set<String> = [
            "terminalId", "amount", "tipAmount", "status", "method", "card", "brand", "reference", "secondsAgo",
        ]
    }

    /// A merchant's webhook endpoint, as the back office's `PUT /merchants/{id}/webhook` sets it.
    public struct Webhook: Codable, Sendable, Equatable {
        public var merchantId: String
        /// Where its webhooks go (default: the host's receiver, the sandbox inbox).
        public var url: String?
        /// `monei` or `standard` (default `standard`).
        public var scheme: String?
        /// A Standard Webhooks secret, `whsec_` and the base64 of 24 to 64 bytes (default: kept, or new).
        public var secret: String?

        public init(merchantId: String, url: String? = nil, scheme: String? = nil, secret: String? = nil) {
            self.merchantId = merchantId
            self.url = url
            self.scheme = scheme
            self.secret = secret
        }

        static let fields: Set<String> = ["merchantId", "url", "scheme", "secret"]
    }

    static let fields: Set<String> = ["devices", "transactions", "webhooks", "qrOrders"]

    /// The path of the first member that no region's part has, below `path`, or nil.
    public static func unknownField(in json: Any, path: String = "") -> String? {
        func named(_ key: String) -> String { path.isEmpty ? key : path + "." + key }
        guard let object = json as? [String: Any] else { return nil }
        if let key = object.keys.sorted().first(where: { !fields.contains($0) }) { return named(key) }
        for (key, known) in [
            ("devices", Device.fields), ("transactions", Transaction.fields), ("webhooks", Webhook.fields), ("qrOrders", QROrder.fields),
        ] {
            guard let items = object[key] as? [Any] else { continue }
            for (index, item) in items.enumerated() {
                guard let member = item as? [String: Any] else { continue }
                if let bad = member.keys.sorted().first(where: { !known.contains($0) }) { return named("\(key)[\(index)].\(bad)") }
            }
        }
        return nil
    }
}

/// What a host answers to a seed: each device with its secret and session, so that the caller
/// writes the device folders, and the ids of the transactions made.
public struct SeedResult: Codable, Sendable, Equatable {
    public struct Device: Codable, Sendable, Equatable {
        public var terminalId: String
        public var installationId: String
        public var deviceSecret: String
        public var registeredAt: String
        /// The session's bearer token, when the seed logged the device in.
        public var sessionToken: String?
        public var sessionExpiresAtUnix: Double?

        public init(
            terminalId: String, installationId: String, deviceSecret: String, registeredAt: String, sessionToken: String? = nil,
            sessionExpiresAtUnix: Double? = nil
        ) {
            self.terminalId = terminalId
            self.installationId = installationId
            self.deviceSecret = deviceSecret
            self.registeredAt = registeredAt
            self.sessionToken = sessionToken
            self.sessionExpiresAtUnix = sessionExpiresAtUnix
        }
    }

    /// A QR payment the seed made, waiting at the wallet.
    public struct QROrder: Codable, Sendable, Equatable {
        public var terminalId: String
        public var transactionId: String
        public var brand: String
        /// The wallet's pay page of the order: what the customer's phone opens from the QR.
        public var payUrl: String

        public init(terminalId: String, transactionId: String, brand: String, payUrl: String) {
            self.terminalId = terminalId
            self.transactionId = transactionId
            self.brand = brand
            self.payUrl = payUrl
        }
    }

    public var region: String
    public var devices: [Device]
    public var transactions: [String]
    public var webhooks: [String]
    /// Absent when the seed made none.
    public var qrOrders: [QROrder]?

    public init(region: String, devices: [Device], transactions: [String], webhooks: [String], qrOrders: [QROrder]? = nil) {
        self.region = region
        self.devices = devices
        self.transactions = transactions
        self.webhooks = webhooks
        self.qrOrders = qrOrders
    }
}
