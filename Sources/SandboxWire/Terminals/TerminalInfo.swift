/// The seed's `TerminalInfo`: the registered terminal's configuration and capabilities, as
/// `GET /terminal/v1/terminal` answers it, every field present (optional ones as `null`).
///
/// The host builds it from a terminal profile, its merchant and its region (SandboxCore's
/// `TerminalInfo+Profile.swift`).
///
/// ```swift
/// if case .success(let info) = await sdk.getTerminalInfo(), info.tipEnabled {
///     showTipRates(info.dynamicProperties.rates)
/// }
/// ```
///
/// ```json
/// { "terminalId": "EU-T0101", "merchantId": "EU-M01", "merchantName": "Brasserie Lumière",
///   "address1": "Rue de la Montagne 14", "address2": "1000 Bruxelles",
///   "isRefundAvailable": true, "isReversalAvailable": true,
///   "currency": { "code": "EUR", "name": "Euro", "unitLength": 2, "isoCode": 978, "exponent": 2 },
///   "limitAmount": 1000000, "decimalDigitCount": 2, "permittedCountries": null,
///   "profileId": "prf_eu_counter", "dynamicProperties": { … }, "apmConfig": [ … ],
///   "apmEnabled": true, "tipEnabled": true, "maxTipAmount": 5000, "maxTipPercentage": 15,
///   "blikEnabled": null, "terminalCode": null }
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
    public var currency: TerminalCurrency
    /// The largest amount of one transaction, tip included, in minor units.
    public var limitAmount: Int
    /// Digits after the decimal point: the currency's exponent.
    public var decimalDigitCount: Int
    /// Countries (ISO 3166-1 alpha-2) the device must stand in; `nil` means anywhere.
    public var permittedCountries: [String]?
    public var profileId: String
    public var dynamicProperties: DynamicProperties
    public var apmConfig: [APMConfig]
    public var apmEnabled: Bool
    public var tipEnabled: Bool
    /// The largest tip in minor units, or nil (always nil while tips are off).
    public var maxTipAmount: Int?
    /// The largest tip as a percentage, or nil (always nil while tips are off).
    public var maxTipPercentage: Double?
    public var blikEnabled: Bool?
    /// The code asked before a refund (refund verification), or nil.
    public var terminalCode: String?

    public init(
        terminalId: String, merchantId: String, merchantName: String, address1: String, address2: String,
        isRefundAvailable: Bool, isReversalAvailable: Bool, currency: TerminalCurrency, limitAmount: Int,
        decimalDigitCount: Int, permittedCountries: [String]?, profileId: String, dynamicProperties: DynamicProperties,
        apmConfig: [APMConfig], apmEnabled: Bool, tipEnabled: Bool, maxTipAmount: Int?, maxTipPercentage: Double?,
        blikEnabled: Bool?, terminalCode: String?
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

    enum CodingKeys: String, CodingKey {
        case terminalId, merchantId, merchantName, address1, address2, isRefundAvailable, isReversalAvailable
        case currency, limitAmount, decimalDigitCount, permittedCountries, profileId, dynamicProperties
        case apmConfig, apmEnabled, tipEnabled, maxTipAmount, maxTipPercentage, blikEnabled, terminalCode
    }

    /// Writes every field of the seed model, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(terminalId, forKey: .terminalId)
        try container.encode(merchantId, forKey: .merchantId)
        try container.encode(merchantName, forKey: .merchantName)
        try container.encode(address1, forKey: .address1)
        try container.encode(address2, forKey: .address2)
        try container.encode(isRefundAvailable, forKey: .isRefundAvailable)
        try container.encode(isReversalAvailable, forKey: .isReversalAvailable)
        try container.encode(currency, forKey: .currency)
        try container.encode(limitAmount, forKey: .limitAmount)
        try container.encode(decimalDigitCount, forKey: .decimalDigitCount)
        try container.encode(permittedCountries, forKey: .permittedCountries)
        try container.encode(profileId, forKey: .profileId)
        try container.encode(dynamicProperties, forKey: .dynamicProperties)
        try container.encode(apmConfig, forKey: .apmConfig)
        try container.encode(apmEnabled, forKey: .apmEnabled)
        try container.encode(tipEnabled, forKey: .tipEnabled)
        try container.encode(maxTipAmount, forKey: .maxTipAmount)
        try container.encode(maxTipPercentage, forKey: .maxTipPercentage)
        try container.encode(blikEnabled, forKey: .blikEnabled)
        try container.encode(terminalCode, forKey: .terminalCode)
    }
}
