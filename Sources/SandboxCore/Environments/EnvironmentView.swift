import SandboxWire

/// What a host answers at `GET /v1/environment`: its region, and which flavour it plays.
///
/// The region's fields (without the other flavours), plus the chosen flavour's host name,
/// SDK enum case and session length. `currencyExponent` is written for clients that do not
/// carry an ISO 4217 table; on decoding it is ignored, the currency implies it.
///
/// ```json
/// {
///   "id": "EU", "name": "Worldline EMEA", "flavour": "sandbox",
///   "hostname": "sandbox-wl-emea.softpos.eu", "sdkEnvironment": "sandboxEU",
///   "sessionLengthSeconds": 600,
///   "country": "BE", "currency": "EUR", "currencyExponent": 2,
///   "languages": ["english", "dutch", "french"], "supportPhone": null,
///   "limits": { "maxTransactionAmount": 1000000, "maxTipAmount": 10000, "maxTipPercentage": 20 },
///   "apms": ["ALIPAY"], "blik": false, "dcc": true, "tips": true, "refunds": true, "reversals": true
/// }
/// ```
public struct EnvironmentView: Codable, Sendable, Equatable {
    /// The region's id, e.g. `EU`.
    public var id: String
    /// The region's human name.
    public var name: String
    /// The flavour this host plays.
    public var flavour: Flavour
    /// The real backend's documented host for this flavour, or nil where the seed gives none.
    public var hostname: String?
    /// The seed SDK's `Environments` case an app would pass for this flavour, e.g. `sandboxEU`.
    public var sdkEnvironment: String
    /// How long a session token lives after login, in seconds.
    public var sessionLengthSeconds: Int
    /// ISO 3166-1 alpha-2 country.
    public var country: String
    /// Default currency.
    public var currency: Currency
    /// Languages the SDK's screens offer.
    public var languages: [TapOnMobileLanguage]
    /// Help-desk number, or nil.
    public var supportPhone: String?
    /// Amount caps in minor units.
    public var limits: Limits
    /// APMs, BLIK, DCC, tips, refunds, reversals (flattened into the JSON object).
    public var features: Features

    public init(
        id: String, name: String, flavour: Flavour, hostname: String?, sdkEnvironment: String,
        sessionLengthSeconds: Int, country: String, currency: Currency, languages: [TapOnMobileLanguage],
        supportPhone: String?, limits: Limits, features: Features
    ) {
        self.id = id
        self.name = name
        self.flavour = flavour
        self.hostname = hostname
        self.sdkEnvironment = sdkEnvironment
        self.sessionLengthSeconds = sessionLengthSeconds
        self.country = country
        self.currency = currency
        self.languages = languages
        self.supportPhone = supportPhone
        self.limits = limits
        self.features = features
    }

    enum CodingKeys: String, CodingKey {
        case id, name, flavour, hostname, sdkEnvironment, sessionLengthSeconds
        case country, currency, currencyExponent, languages, supportPhone, limits
    }

    /// Decodes a host's answer; unknown fields are ignored so that older clients keep working.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        flavour = try container.decode(Flavour.self, forKey: .flavour)
        hostname = try container.decodeIfPresent(String.self, forKey: .hostname)
        sdkEnvironment = try container.decode(String.self, forKey: .sdkEnvironment)
        sessionLengthSeconds = try container.decode(Int.self, forKey: .sessionLengthSeconds)
        country = try container.decode(String.self, forKey: .country)
        currency = try container.decode(Currency.self, forKey: .currency)
        languages = try container.decode([TapOnMobileLanguage].self, forKey: .languages)
        supportPhone = try container.decodeIfPresent(String.self, forKey: .supportPhone)
        limits = try container.decode(Limits.self, forKey: .limits)
        features = try Features(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(flavour, forKey: .flavour)
        try container.encode(hostname, forKey: .hostname)
        try container.encode(sdkEnvironment, forKey: .sdkEnvironment)
        try container.encode(sessionLengthSeconds, forKey: .sessionLengthSeconds)
        try container.encode(country, forKey: .country)
        try container.encode(currency, forKey: .currency)
        try container.encode(currency.exponent, forKey: .currencyExponent)
        try container.encode(languages, forKey: .languages)
        try container.encode(supportPhone, forKey: .supportPhone)
        try container.encode(limits, forKey: .limits)
        try features.encode(to: encoder)
    }
}
