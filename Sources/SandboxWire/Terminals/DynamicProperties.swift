/// The seed's `DynamicProperties`: links, contacts, tip rates, the reference rule and APM/BLIK
/// timings of a terminal (settings that change without an SDK release), as
/// `TerminalInfo.dynamicProperties`. Times are in seconds.
///
/// Written with every field, `null` included; read leniently (`rates` absent is empty,
/// `referenceEnabled` absent is false).
///
/// ```json
/// { "privacyPolicyUrl": "https://brasserie-lumiere.example/privacy", "cookiesPolicyUrl": null,
///   "userAgreementUrl": null, "email": "support@brasserie-lumiere.example", "whatsapp": null,
///   "phone": null, "apmTimeout": 300, "apmPulling": 5, "apmRefundTimeout": 60, "rates": [5, 10, 15],
///   "referencePattern": null, "referenceEnabled": false, "blikTimeout": null, "blikPulling": null }
/// ```
public struct DynamicProperties: Codable, Sendable, Equatable, Hashable {
    public var privacyPolicyUrl: String?
    public var cookiesPolicyUrl: String?
    public var userAgreementUrl: String?
    /// Support e-mail address.
    public var email: String?
    /// Support WhatsApp number.
    public var whatsapp: String?
    /// Support phone number.
    public var phone: String?
    /// How long an APM order waits for the customer, in seconds.
    public var apmTimeout: Int?
    /// How often the SDK polls an APM order, in seconds.
    public var apmPulling: Int?
    /// How long an APM refund may take, in seconds.
    public var apmRefundTimeout: Int?
    /// Preset tip percentages; empty when tips are off.
    public var rates: [Int]
    /// The `NSRegularExpression` a reference must match, or nil for free text.
    public var referencePattern: String?
    /// Whether the SDK asks for a reference.
    public var referenceEnabled: Bool
    /// How long a BLIK payment waits for the customer, in seconds.
    public var blikTimeout: Int?
    /// How often the SDK polls a BLIK payment, in seconds.
    public var blikPulling: Int?

    public init(
        privacyPolicyUrl: String? = nil, cookiesPolicyUrl: String? = nil, userAgreementUrl: String? = nil,
        email: String? = nil, whatsapp: String? = nil, phone: String? = nil, apmTimeout: Int? = nil,
        apmPulling: Int? = nil, apmRefundTimeout: Int? = nil, rates: [Int] = [], referencePattern: String? = nil,
        referenceEnabled: Bool = false, blikTimeout: Int? = nil, blikPulling: Int? = nil
    ) {
        self.privacyPolicyUrl = privacyPolicyUrl
        self.cookiesPolicyUrl = cookiesPolicyUrl
        self.userAgreementUrl = userAgreementUrl
        self.email = email
        self.whatsapp = whatsapp
        self.phone = phone
        self.apmTimeout = apmTimeout
        self.apmPulling = apmPulling
        self.apmRefundTimeout = apmRefundTimeout
        self.rates = rates
        self.referencePattern = referencePattern
        self.referenceEnabled = referenceEnabled
        self.blikTimeout = blikTimeout
        self.blikPulling = blikPulling
    }

    enum CodingKeys: String, CodingKey {
        case privacyPolicyUrl, cookiesPolicyUrl, userAgreementUrl, email, whatsapp, phone
        case apmTimeout, apmPulling, apmRefundTimeout, rates, referencePattern, referenceEnabled
        case blikTimeout, blikPulling
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        privacyPolicyUrl = try c.decodeIfPresent(String.self, forKey: .privacyPolicyUrl)
        cookiesPolicyUrl = try c.decodeIfPresent(String.self, forKey: .cookiesPolicyUrl)
        userAgreementUrl = try c.decodeIfPresent(String.self, forKey: .userAgreementUrl)
        email = try c.decodeIfPresent(String.self, forKey: .email)
        whatsapp = try c.decodeIfPresent(String.self, forKey: .whatsapp)
        phone = try c.decodeIfPresent(String.self, forKey: .phone)
        apmTimeout = try c.decodeIfPresent(Int.self, forKey: .apmTimeout)
        apmPulling = try c.decodeIfPresent(Int.self, forKey: .apmPulling)
        apmRefundTimeout = try c.decodeIfPresent(Int.self, forKey: .apmRefundTimeout)
        rates = try c.decodeIfPresent([Int].self, forKey: .rates) ?? []
        referencePattern = try c.decodeIfPresent(String.self, forKey: .referencePattern)
        referenceEnabled = try c.decodeIfPresent(Bool.self, forKey: .referenceEnabled) ?? false
        blikTimeout = try c.decodeIfPresent(Int.self, forKey: .blikTimeout)
        blikPulling = try c.decodeIfPresent(Int.self, forKey: .blikPulling)
    }

    /// Writes every field, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(privacyPolicyUrl, forKey: .privacyPolicyUrl)
        try container.encode(cookiesPolicyUrl, forKey: .cookiesPolicyUrl)
        try container.encode(userAgreementUrl, forKey: .userAgreementUrl)
        try container.encode(email, forKey: .email)
        try container.encode(whatsapp, forKey: .whatsapp)
        try container.encode(phone, forKey: .phone)
        try container.encode(apmTimeout, forKey: .apmTimeout)
        try container.encode(apmPulling, forKey: .apmPulling)
        try container.encode(apmRefundTimeout, forKey: .apmRefundTimeout)
        try container.encode(rates, forKey: .rates)
        try container.encode(referencePattern, forKey: .referencePattern)
        try container.encode(referenceEnabled, forKey: .referenceEnabled)
        try container.encode(blikTimeout, forKey: .blikTimeout)
        try container.encode(blikPulling, forKey: .blikPulling)
    }
}
