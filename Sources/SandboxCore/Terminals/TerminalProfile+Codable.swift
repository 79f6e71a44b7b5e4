import Foundation
import SandboxWire

extension TerminalProfile {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, profileId, refundAvailable, reversalAvailable, limitAmount, permittedCountries, tips, reference
        case autoLogin, registerOptions, apm, blikEnabled, terminalCode, dynamicProperties
    }

    /// Decodes a terminal on its own, checking only the rules that need no region.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, region: nil)
    }

    /// Decodes a terminal and checks it, field by field in file order, against `region`.
    ///
    /// Fields that may be null may also be left out; `dynamicProperties` left out means all null.
    ///
    /// - Parameters:
    ///   - decoder: positioned on the terminal object.
    ///   - region: the region the terminal trades in; nil skips the region rules (limit,
    ///     tips, APM brands, BLIK).
    /// - Throws: `DecodingError` at the offending field's path (see `sandbox-data/README.md`).
    init(from decoder: any Decoder, region: Region?) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(.id, checkedBy: FixtureRules.idProblem)
        profileId = try container.decodeNonEmpty(.profileId)
        refundAvailable = try container.decode(Bool.self, forKey: .refundAvailable)
        reversalAvailable = try container.decode(Bool.self, forKey: .reversalAvailable)

        limitAmount = try container.decodeWholeNumber(forKey: .limitAmount)
        guard limitAmount > 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .limitAmount, in: container, debugDescription: "must be a positive amount in minor units")
        }
        if let region, limitAmount > region.limits.maxTransactionAmount {
            throw DecodingError.dataCorruptedError(
                forKey: .limitAmount, in: container,
                debugDescription: "must not exceed the region's maximum \(region.limits.maxTransactionAmount)")
        }

        permittedCountries = try container.decodeIfPresent([String].self, forKey: .permittedCountries)
        if let permittedCountries {
            try Self.checkCountries(permittedCountries, at: decoder.codingPath + [CodingKeys.permittedCountries])
        }

        tips = try Tips(from: container.objectDecoder(forKey: .tips), region: region)
        reference = try Reference(from: container.objectDecoder(forKey: .reference))
        autoLogin = try container.decode(Bool.self, forKey: .autoLogin)
        registerOptions = try Self.decodeRegisterOptions(in: container)
        apm = try APM(from: container.objectDecoder(forKey: .apm), region: region)

        blikEnabled = try container.decodeIfPresent(Bool.self, forKey: .blikEnabled)
        if let region, blikEnabled == true, !region.features.blik {
            throw DecodingError.dataCorruptedError(
                forKey: .blikEnabled, in: container,
                debugDescription: "must be false or null: region \(region.id) does not offer BLIK")
        }

        terminalCode = try container.decodeIfPresent(.terminalCode, checkedBy: FixtureRules.terminalCodeProblem)
        dynamicProperties = try container.objectDecoderIfPresent(forKey: .dynamicProperties)
            .map(DynamicProfile.init(from:)) ?? DynamicProfile()
    }

    /// Writes every field, nulls included, in the shape of `merchants.json`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(profileId, forKey: .profileId)
        try container.encode(refundAvailable, forKey: .refundAvailable)
        try container.encode(reversalAvailable, forKey: .reversalAvailable)
        try container.encode(limitAmount, forKey: .limitAmount)
        try container.encode(permittedCountries, forKey: .permittedCountries)
        try container.encode(tips, forKey: .tips)
        try container.encode(reference, forKey: .reference)
        try container.encode(autoLogin, forKey: .autoLogin)
        try container.encode(registerOptions, forKey: .registerOptions)
        try container.encode(apm, forKey: .apm)
        try container.encode(blikEnabled, forKey: .blikEnabled)
        try container.encode(terminalCode, forKey: .terminalCode)
        try container.encode(dynamicProperties, forKey: .dynamicProperties)
    }

    /// A non-empty list of assigned ISO 3166-1 alpha-2 codes, none twice.
    private static func checkCountries(_ countries: [String], at path: [any CodingKey]) throws {
        guard !countries.isEmpty else {
            throw DecodingError.invalid("must list at least one country, or be null for anywhere", at: path)
        }
        for (index, country) in countries.enumerated() {
            if !CountryCode.isAssigned(country) {
                throw DecodingError.invalid(
                    "\"\(country)\" is not an ISO 3166-1 alpha-2 country code", at: path + [FieldKey(intValue: index)])
            }
            if countries[..<index].contains(country) {
                throw DecodingError.invalid("\"\(country)\" is listed twice", at: path + [FieldKey(intValue: index)])
            }
        }
    }

    private static func decodeRegisterOptions(in container: KeyedDecodingContainer<CodingKeys>) throws -> [RegisterOption] {
        let names = try container.decode([String].self, forKey: .registerOptions)
        let path = container.codingPath + [CodingKeys.registerOptions]
        guard !names.isEmpty else {
            throw DecodingError.invalid("must list at least one of portal, registrationCode", at: path)
        }
        return try names.enumerated().map { index, name in
            guard let option = RegisterOption(rawValue: name) else {
                throw DecodingError.invalid(
                    "\"\(name)\" is not a register option (one of portal, registrationCode)", at: path + [FieldKey(intValue: index)])
            }
            if names[..<index].contains(name) {
                throw DecodingError.invalid("\"\(name)\" is listed twice", at: path + [FieldKey(intValue: index)])
            }
            return option
        }
    }
}

extension TerminalProfile.Tips {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case enabled, rates, maxAmount, maxPercentage
    }

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, region: nil)
    }

    /// Decodes tips and checks them against the region's `tips` switch and tip limits.
    ///
    /// Disabled tips carry no rates or caps, so that a file never holds settings nobody sees.
    /// Null caps mean the region's caps; a preset rate may not exceed the percentage cap in force.
    init(from decoder: any Decoder, region: Region?) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        enabled = try container.decode(Bool.self, forKey: .enabled)
        if let region, enabled, !region.features.tips {
            throw DecodingError.dataCorruptedError(
                forKey: .enabled, in: container, debugDescription: "must be false: region \(region.id) does not offer tips")
        }

        var list = try container.nestedUnkeyedContainer(forKey: .rates)
        var rates: [Int] = []
        while !list.isAtEnd {
            let path = container.codingPath + [CodingKeys.rates, FieldKey(intValue: list.currentIndex)]
            let rate = try list.decode(Double.self)
            guard rate.rounded() == rate, (1...100).contains(rate) else {
                throw DecodingError.invalid("must be a whole percentage from 1 to 100", at: path)
            }
            if rates.contains(Int(rate)) {
                throw DecodingError.invalid("\(Int(rate)) is listed twice", at: path)
            }
            rates.append(Int(rate))
        }
        self.rates = rates

        maxAmount = try container.decodeWholeNumberIfPresent(forKey: .maxAmount)
        if let maxAmount, maxAmount <= 0 {
            throw DecodingError.dataCorruptedError(
                forKey: .maxAmount, in: container, debugDescription: "must be a positive amount in minor units or null")
        }
        maxPercentage = try container.decodeIfPresent(Double.self, forKey: .maxPercentage)
        if let maxPercentage, !(maxPercentage > 0 && maxPercentage <= 100) {
            throw DecodingError.dataCorruptedError(
                forKey: .maxPercentage, in: container, debugDescription: "must be a percentage above 0 and at most 100, or null")
        }

        if !enabled {
            if !rates.isEmpty {
                throw DecodingError.dataCorruptedError(
                    forKey: .rates, in: container, debugDescription: "must be empty when tips are disabled")
            }
            if maxAmount != nil {
                throw DecodingError.dataCorruptedError(
                    forKey: .maxAmount, in: container, debugDescription: "must be null when tips are disabled")
            }
            if maxPercentage != nil {
                throw DecodingError.dataCorruptedError(
                    forKey: .maxPercentage, in: container, debugDescription: "must be null when tips are disabled")
            }
        }

        if let region {
            if let maxAmount, let regionMax = region.limits.maxTipAmount, maxAmount > regionMax {
                throw DecodingError.dataCorruptedError(
                    forKey: .maxAmount, in: container, debugDescription: "must not exceed the region's maximum tip \(regionMax)")
            }
            if let maxPercentage, let regionMax = region.limits.maxTipPercentage, maxPercentage > regionMax {
                throw DecodingError.dataCorruptedError(
                    forKey: .maxPercentage, in: container,
                    debugDescription: "must not exceed the region's maximum tip percentage \(Self.percent(regionMax))")
            }
        }
        if let cap = maxPercentage ?? region?.limits.maxTipPercentage,
           let index = rates.firstIndex(where: { Double($0) > cap }) {
            throw DecodingError.invalid(
                "\(rates[index]) is above the tip percentage cap \(Self.percent(cap))",
                at: container.codingPath + [CodingKeys.rates, FieldKey(intValue: index)])
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(enabled, forKey: .enabled)
        try container.encode(rates, forKey: .rates)
        try container.encode(maxAmount, forKey: .maxAmount)
        try container.encode(maxPercentage, forKey: .maxPercentage)
    }

    /// `20.0` → "20", `12.5` → "12.5".
    static func percent(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension TerminalProfile.Reference {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case enabled, pattern
    }

    /// - Throws: `DecodingError` for a pattern that `NSRegularExpression` refuses, an empty
    ///   pattern, or a pattern on a disabled reference.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        enabled = try container.decode(Bool.self, forKey: .enabled)
        pattern = try container.decodeIfPresent(.pattern, checkedBy: FixtureRules.patternProblem)
        if !enabled, pattern != nil {
            throw DecodingError.dataCorruptedError(
                forKey: .pattern, in: container, debugDescription: "must be null when the reference is disabled")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(enabled, forKey: .enabled)
        try container.encode(pattern, forKey: .pattern)
    }
}

extension TerminalProfile.APM {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case enabled, brands
    }

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, region: nil)
    }

    /// Decodes the APM settings; every brand must be one of the region's `apms`.
    init(from decoder: any Decoder, region: Region?) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        enabled = try container.decode(Bool.self, forKey: .enabled)
        if let region, enabled, region.features.apms.isEmpty {
            throw DecodingError.dataCorruptedError(
                forKey: .enabled, in: container, debugDescription: "must be false: region \(region.id) offers no APMs")
        }
        brands = try container.decodeObjects(forKey: .brands) { decoder, _ in
            try TerminalProfile.APMBrand(from: decoder)
        }
        for (index, brand) in brands.enumerated() {
            let path = container.codingPath + [CodingKeys.brands, FieldKey(intValue: index),
                                               TerminalProfile.APMBrand.CodingKeys.brandName]
            if let region, !region.features.apms.contains(brand.brandName) {
                let offered = region.features.apms.isEmpty
                    ? "it offers none" : "one of \(region.features.apms.joined(separator: ", "))"
                throw DecodingError.invalid("\"\(brand.brandName)\" is not an APM of region \(region.id) (\(offered))", at: path)
            }
            if brands[..<index].contains(where: { $0.brandName == brand.brandName }) {
                throw DecodingError.invalid("\"\(brand.brandName)\" is listed twice", at: path)
            }
        }
        if enabled, brands.isEmpty {
            throw DecodingError.dataCorruptedError(
                forKey: .brands, in: container, debugDescription: "must list at least one brand when APMs are enabled")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(enabled, forKey: .enabled)
        try container.encode(brands, forKey: .brands)
    }
}

extension TerminalProfile.APMBrand {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case brandName, brandFullName, customId, isActive
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        brandName = try container.decode(.brandName) { name in
            Features.isBrandName(name)
                ? nil : "\"\(name)\" is not an APM brand name (upper-case letters, digits and underscores, e.g. ALIPAY)"
        }
        brandFullName = try container.decodeIfPresent(String.self, forKey: .brandFullName)
        customId = try container.decodeIfPresent(String.self, forKey: .customId)
        isActive = try container.decode(Bool.self, forKey: .isActive)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(brandName, forKey: .brandName)
        try container.encode(brandFullName, forKey: .brandFullName)
        try container.encode(customId, forKey: .customId)
        try container.encode(isActive, forKey: .isActive)
    }
}

extension TerminalProfile.DynamicProfile {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case privacyPolicyUrl, cookiesPolicyUrl, userAgreementUrl, email, whatsapp, phone
        case apmTimeout, apmPulling, apmRefundTimeout, blikTimeout, blikPulling
    }

    /// - Throws: `DecodingError` for a link that is not an http(s) URL, a malformed e-mail
    ///   address or phone number, or a timing that is not a positive whole number of seconds.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        privacyPolicyUrl = try container.decodeIfPresent(.privacyPolicyUrl, checkedBy: FixtureRules.urlProblem)
        cookiesPolicyUrl = try container.decodeIfPresent(.cookiesPolicyUrl, checkedBy: FixtureRules.urlProblem)
        userAgreementUrl = try container.decodeIfPresent(.userAgreementUrl, checkedBy: FixtureRules.urlProblem)
        email = try container.decodeIfPresent(.email, checkedBy: FixtureRules.emailProblem)
        whatsapp = try container.decodeIfPresent(.whatsapp, checkedBy: Self.phoneProblem)
        phone = try container.decodeIfPresent(.phone, checkedBy: Self.phoneProblem)
        apmTimeout = try container.decodeSecondsIfPresent(forKey: .apmTimeout)
        apmPulling = try container.decodeSecondsIfPresent(forKey: .apmPulling)
        apmRefundTimeout = try container.decodeSecondsIfPresent(forKey: .apmRefundTimeout)
        blikTimeout = try container.decodeSecondsIfPresent(forKey: .blikTimeout)
        blikPulling = try container.decodeSecondsIfPresent(forKey: .blikPulling)
    }

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
        try container.encode(blikTimeout, forKey: .blikTimeout)
        try container.encode(blikPulling, forKey: .blikPulling)
    }

    /// The region's phone rule (`supportPhone`): `+`, then digits and spaces.
    private static func phoneProblem(_ number: String) -> String? {
        Region.isPhoneNumber(number) ? nil : "\"\(number)\" is not an international phone number (+, then digits and spaces)"
    }
}
