import SandboxWire

/// One terminal of a merchant and the profile it runs: limits, tips, references, APMs, BLIK,
/// how it logs in and how devices may register onto it.
///
/// Terminals come from `sandbox-data/merchants.json` (and `local/*.json`) through
/// ``MerchantCatalogue``, which checks every field against the terminal's region. A host
/// turns one into the wire models with ``TerminalInfo/init(terminal:merchant:region:)`` and
/// ``InfoInit/init(terminal:)``.
///
/// ```json
/// { "id": "EU-T0102", "profileId": "prf_eu_counter_light", "refundAvailable": false,
///   "reversalAvailable": true, "limitAmount": 5000, "permittedCountries": null,
///   "tips": { "enabled": false, "rates": [], "maxAmount": null, "maxPercentage": null },
///   "reference": { "enabled": false, "pattern": null }, "autoLogin": false,
///   "registerOptions": ["registrationCode"], "apm": { "enabled": false, "brands": [] },
///   "blikEnabled": null, "terminalCode": null, "dynamicProperties": { … } }
/// ```
public struct TerminalProfile: Codable, Sendable, Equatable, Identifiable {
    /// The terminal id, unique across all fixture files, e.g. `EU-T0101`.
    public var id: String
    /// The id of the configuration profile the acquirer applied (`TerminalInfo.profileId`).
    public var profileId: String
    /// Whether refunds are permitted (the region's `refunds` switch must be on as well).
    public var refundAvailable: Bool
    /// Whether reversals are permitted (the region's `reversals` switch must be on as well).
    public var reversalAvailable: Bool
    /// The largest transaction in minor units, tip included; at most the region's maximum.
    public var limitAmount: Int
    /// ISO 3166-1 alpha-2 countries the terminal may trade in, or nil for anywhere.
    public var permittedCountries: [String]?
    /// Tipping: on or off, preset rates and caps.
    public var tips: Tips
    /// The merchant's own transaction reference.
    public var reference: Reference
    /// Whether `doLogin` succeeds without the secure code.
    public var autoLogin: Bool
    /// How a device may register onto this terminal; never empty.
    public var registerOptions: [RegisterOption]
    /// QR wallets (APMs) and their brands.
    public var apm: APM
    /// Whether BLIK is offered, or nil where the question does not arise (regions without BLIK).
    public var blikEnabled: Bool?
    /// The 4 to 6 digit code the SDK asks before a refund, or nil for none.
    public var terminalCode: String?
    /// Links, contacts and APM/BLIK timings the SDK shows or uses.
    public var dynamicProperties: DynamicProfile

    public init(
        id: String, profileId: String, refundAvailable: Bool = true, reversalAvailable: Bool = true,
        limitAmount: Int, permittedCountries: [String]? = nil, tips: Tips = Tips(), reference: Reference = Reference(),
        autoLogin: Bool = false, registerOptions: [RegisterOption] = RegisterOption.allCases, apm: APM = APM(),
        blikEnabled: Bool? = nil, terminalCode: String? = nil, dynamicProperties: DynamicProfile = DynamicProfile()
    ) {
        self.id = id
        self.profileId = profileId
        self.refundAvailable = refundAvailable
        self.reversalAvailable = reversalAvailable
        self.limitAmount = limitAmount
        self.permittedCountries = permittedCountries
        self.tips = tips
        self.reference = reference
        self.autoLogin = autoLogin
        self.registerOptions = registerOptions
        self.apm = apm
        self.blikEnabled = blikEnabled
        self.terminalCode = terminalCode
        self.dynamicProperties = dynamicProperties
    }

    /// A way a device can be registered: the seed's `RegisterOptions`, the wire's own enum.
    public typealias RegisterOption = RegisterOptions

    /// Tipping on this terminal.
    ///
    /// ```json
    /// { "enabled": true, "rates": [5, 10, 15], "maxAmount": 5000, "maxPercentage": 15 }
    /// ```
    public struct Tips: Codable, Sendable, Equatable {
        /// Whether a sale may carry a tip; only where the region offers tips.
        public var enabled: Bool
        /// Preset tip percentages the SDK offers (1 to 100 each); empty when disabled.
        public var rates: [Int]
        /// The largest tip in minor units, or nil for the region's cap.
        public var maxAmount: Int?
        /// The largest tip as a percentage of the base amount, or nil for the region's cap.
        public var maxPercentage: Double?

        public init(enabled: Bool = false, rates: [Int] = [], maxAmount: Int? = nil, maxPercentage: Double? = nil) {
            self.enabled = enabled
            self.rates = rates
            self.maxAmount = maxAmount
            self.maxPercentage = maxPercentage
        }
    }

    /// The merchant's own reference typed at a sale.
    ///
    /// ```json
    /// { "enabled": true, "pattern": "^INV-[0-9]{6}$" }
    /// ```
    public struct Reference: Codable, Sendable, Equatable {
        /// Whether the SDK asks for a reference.
        public var enabled: Bool
        /// An `NSRegularExpression` the reference must match, or nil for free text.
        public var pattern: String?

        public init(enabled: Bool = false, pattern: String? = nil) {
            self.enabled = enabled
            self.pattern = pattern
        }
    }

    /// QR wallets on this terminal.
    ///
    /// ```json
    /// { "enabled": true, "brands": [{ "brandName": "ALIPAY", "brandFullName": "Alipay+", "customId": null, "isActive": true }] }
    /// ```
    public struct APM: Codable, Sendable, Equatable {
        /// Whether APM payments are offered at all; only where the region lists APMs.
        public var enabled: Bool
        /// The configured brands, each one of the region's `apms`.
        public var brands: [APMBrand]

        public init(enabled: Bool = false, brands: [APMBrand] = []) {
            self.enabled = enabled
            self.brands = brands
        }
    }

    /// One configured QR wallet brand; becomes a ``APMConfig`` on the wire.
    public struct APMBrand: Codable, Sendable, Equatable {
        /// The brand as the region's `apms` and the SDK's `APMBrand` name it, e.g. `ALIPAY`.
        public var brandName: String
        /// A display name, or nil.
        public var brandFullName: String?
        /// The acquirer's identifier of this integration, or nil.
        public var customId: String?
        /// Whether the brand may be used now.
        public var isActive: Bool

        public init(brandName: String, brandFullName: String? = nil, customId: String? = nil, isActive: Bool = true) {
            self.brandName = brandName
            self.brandFullName = brandFullName
            self.customId = customId
            self.isActive = isActive
        }
    }

    /// Links, contacts and timings; every field may be null.
    ///
    /// Timeouts and polling intervals are in seconds. They become the matching fields of
    /// ``DynamicProperties`` on the wire.
    public struct DynamicProfile: Codable, Sendable, Equatable {
        public var privacyPolicyUrl: String?
        public var cookiesPolicyUrl: String?
        public var userAgreementUrl: String?
        /// Support e-mail address.
        public var email: String?
        /// Support WhatsApp number (international form).
        public var whatsapp: String?
        /// Support phone number (international form).
        public var phone: String?
        /// How long an APM order waits for the customer.
        public var apmTimeout: Int?
        /// How often the SDK polls an APM order.
        public var apmPulling: Int?
        /// How long an APM refund may take.
        public var apmRefundTimeout: Int?
        /// How long a BLIK payment waits for the customer.
        public var blikTimeout: Int?
        /// How often the SDK polls a BLIK payment.
        public var blikPulling: Int?

        public init(
            privacyPolicyUrl: String? = nil, cookiesPolicyUrl: String? = nil, userAgreementUrl: String? = nil,
            email: String? = nil, whatsapp: String? = nil, phone: String? = nil,
            apmTimeout: Int? = nil, apmPulling: Int? = nil, apmRefundTimeout: Int? = nil,
            blikTimeout: Int? = nil, blikPulling: Int? = nil
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
            self.blikTimeout = blikTimeout
            self.blikPulling = blikPulling
        }
    }
}
