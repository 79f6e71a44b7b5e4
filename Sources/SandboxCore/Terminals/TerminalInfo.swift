/// The seed's `TerminalInfo`: what `GET /terminal/v1/terminal` answers, every field present.
///
/// Built from a terminal profile, its merchant and its region. The region has the last word:
/// a switch it turns off (`refunds`, `reversals`, `tips`, `blik`, no `apms`) is off on every
/// terminal, and the limit never exceeds its maximum. Tip caps left null on the terminal are
/// the region's. Optional fields are written as `null`, never left out.
///
/// ```swift
/// let info = TerminalInfo(terminal: terminal, merchant: merchant, region: region)
/// info.currency.code        // "EUR"
/// info.decimalDigitCount    // 2
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
public struct TerminalInfo: Codable, Sendable, Equatable {
    public var terminalId: String
    public var merchantId: String
    public var merchantName: String
    public var address1: String
    public var address2: String
    public var isRefundAvailable: Bool
    public var isReversalAvailable: Bool
    public var currency: TerminalCurrency
    /// The largest transaction, tip included, in minor units.
    public var limitAmount: Int
    /// Digits after the decimal point: the currency's exponent.
    public var decimalDigitCount: Int
    /// ISO 3166-1 alpha-2 countries the terminal may trade in, or nil for anywhere.
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
    /// The code asked before a refund, or nil.
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

    /// A terminal as its device sees it.
    ///
    /// - Parameters:
    ///   - terminal: the terminal's profile.
    ///   - merchant: the merchant it belongs to (name and address).
    ///   - region: the region it trades in (currency, limits, feature switches).
    public init(terminal: TerminalProfile, merchant: Merchant, region: Region) {
        let tips = terminal.tips.enabled && region.features.tips
        let blik: Bool? = region.features.blik ? terminal.blikEnabled : terminal.blikEnabled.map { _ in false }
        self.init(
            terminalId: terminal.id, merchantId: merchant.id, merchantName: merchant.name,
            address1: merchant.address1, address2: merchant.address2,
            isRefundAvailable: terminal.refundAvailable && region.features.refunds,
            isReversalAvailable: terminal.reversalAvailable && region.features.reversals,
            currency: TerminalCurrency(region.currency),
            limitAmount: min(terminal.limitAmount, region.limits.maxTransactionAmount),
            decimalDigitCount: region.currency.exponent,
            permittedCountries: terminal.permittedCountries,
            profileId: terminal.profileId,
            dynamicProperties: DynamicProperties(terminal: terminal, region: region),
            apmConfig: terminal.apm.brands.map(APMConfig.init),
            apmEnabled: terminal.apm.enabled && !region.features.apms.isEmpty,
            tipEnabled: tips,
            maxTipAmount: tips ? terminal.tips.maxAmount ?? region.limits.maxTipAmount : nil,
            maxTipPercentage: tips ? terminal.tips.maxPercentage ?? region.limits.maxTipPercentage : nil,
            blikEnabled: blik,
            terminalCode: terminal.terminalCode)
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
