/// The registered terminal's configuration and capabilities (seed "TerminalInfo").
///
/// ```swift
/// if case .success(let info) = await sdk.getTerminalInfo(), info.tipEnabled {
///     showTipRates(info.dynamicProperties.rates)
/// }
/// ```
public struct TerminalInfo: Codable, Sendable, Equatable, Hashable {
    public var terminalId: String
    public var merchantId: String
    public var merchantName: String
    public var address1: String
    public var address2: String
    public var isRefundAvailable: Bool
    public var isReversalAvailable: Bool
    /// The terminal's currency: every sale is in it.
    public var currency: Currency
    /// The largest amount of one transaction, tip included, in minor units.
    public var limitAmount: Int
    public var decimalDigitCount: Int
    /// Countries (ISO 3166-1 alpha-2) the device must stand in; `nil` means anywhere.
    public var permittedCountries: [String]?
    public var profileId: String
    public var dynamicProperties: DynamicProperties
    public var apmConfig: [APMConfig]
    public var apmEnabled: Bool
    public var tipEnabled: Bool
    public var maxTipAmount: Int?
    public var maxTipPercentage: Double?
    public var blikEnabled: Bool?
    /// Used for refund verification when set.
    public var terminalCode: String?

    public init(
        terminalId: String, merchantId: String, merchantName: String, address1: String, address2: String,
        isRefundAvailable: Bool, isReversalAvailable: Bool, currency: Currency, limitAmount: Int, decimalDigitCount: Int,
        permittedCountries: [String]?, profileId: String, dynamicProperties: DynamicProperties, apmConfig: [APMConfig],
        apmEnabled: Bool, tipEnabled: Bool, maxTipAmount: Int?, maxTipPercentage: Double?, blikEnabled: Bool?,
        terminalCode: String?
    ) {
        self.terminalId = terminalId
        self.merchantId = merchantId
        self.merchantName = merchantName
        self.address1 = address1
        self.address2 = address2
        self.isRefundAvailable = isRefundAvailable
        self.isReversalAvailable = isReversalAvailable
        self.currency = currency
        self.limitAmount = limitAmount
        self.decimalDigitCount = decimalDigitCount
        self.permittedCountries = permittedCountries
        self.profileId = profileId
        self.dynamicProperties = dynamicProperties
        self.apmConfig = apmConfig
        self.apmEnabled = apmEnabled
        self.tipEnabled = tipEnabled
        self.maxTipAmount = maxTipAmount
        self.maxTipPercentage = maxTipPercentage
        self.blikEnabled = blikEnabled
        self.terminalCode = terminalCode
    }
}

/// Links and settings of a terminal that change without an SDK release (seed "DynamicProperties").
public struct DynamicProperties: Codable, Sendable, Equatable, Hashable {
    public var privacyPolicyUrl: String?
    public var cookiesPolicyUrl: String?
    public var userAgreementUrl: String?
    public var email: String?
    public var whatsapp: String?
    public var phone: String?
    /// Seconds an APM transaction may take.
    public var apmTimeout: Int?
    /// Seconds between APM status checks.
    public var apmPulling: Int?
    public var apmRefundTimeout: Int?
    /// The tip rates offered, in percent.
    public var rates: [Int]
    /// A regular expression a reference must match.
    public var referencePattern: String?
    public var referenceEnabled: Bool
    public var blikTimeout: Int?
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
        case privacyPolicyUrl, cookiesPolicyUrl, userAgreementUrl, email, whatsapp, phone, apmTimeout, apmPulling
        case apmRefundTimeout, rates, referencePattern, referenceEnabled, blikTimeout, blikPulling
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
}

/// The seed's namespace of APM data.
public enum APMPaymentData {
    /// An alternative payment method brand (`ALIPAY`, `WECHATPAY`, `PAYCONIQ`, `BLIK`, `TWINT` …).
    ///
    /// A wrapper over the wire's string so a brand the SDK does not list yet still decodes.
    public struct APMBrand: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let ALIPAY = APMBrand(rawValue: "ALIPAY")
        public static let WECHATPAY = APMBrand(rawValue: "WECHATPAY")
        public static let PAYCONIQ = APMBrand(rawValue: "PAYCONIQ")
        public static let BLIK = APMBrand(rawValue: "BLIK")
        public static let TWINT = APMBrand(rawValue: "TWINT")

        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        public var description: String { rawValue }
    }
}

/// One alternative payment method configured on the terminal (seed "APMConfig").
public struct APMConfig: Codable, Sendable, Equatable, Hashable {
    public var brandName: APMPaymentData.APMBrand
    public var brandFullName: String?
    public var customId: String?
    public var isActive: Bool

    public init(brandName: APMPaymentData.APMBrand, brandFullName: String? = nil, customId: String? = nil, isActive: Bool) {
        self.brandName = brandName
        self.brandFullName = brandFullName
        self.customId = customId
        self.isActive = isActive
    }
}

/// What the terminal allows before and around login (seed "InfoInit").
public struct InfoInit: Codable, Sendable, Equatable, Hashable {
    /// Whether ``TapOnMobile/doLogin(pin:)`` works without a secure code.
    public var isAutoLoginEnabled: Bool
    /// How a device may be registered on this terminal.
    public var registerOptions: [RegisterOptions]

    public init(isAutoLoginEnabled: Bool, registerOptions: [RegisterOptions]) {
        self.isAutoLoginEnabled = isAutoLoginEnabled
        self.registerOptions = registerOptions
    }
}
