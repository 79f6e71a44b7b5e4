import SandboxWire

extension Region {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, vendor, country, currency, languages, supportPhone, flavours, limits
    }

    /// Decodes a region and checks each field, in file order, stopping at the first problem.
    ///
    /// The feature switches (`apms`, `blik` …) are read from the same object.
    ///
    /// - Throws: `DecodingError` whose coding path names the field, for anything missing,
    ///   mistyped, unknown or out of its rules (see `sandbox-data/README.md`).
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self, alsoAllowed: Features.CodingKeys.allCases.map(\.stringValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)

        id = try container.decode(String.self, forKey: .id)
        guard Self.isRegionID(id) else {
            throw DecodingError.dataCorruptedError(
                forKey: .id, in: container,
                debugDescription: "\"\(id)\" is not a region id (upper-case letters, digits and underscores, e.g. PAYONE_DE)")
        }
        name = try container.decode(String.self, forKey: .name)
        guard !name.allSatisfy(\.isWhitespace) else {
            throw DecodingError.dataCorruptedError(forKey: .name, in: container, debugDescription: "must not be empty")
        }
        let vendorName = try container.decodeIfPresent(String.self, forKey: .vendor) ?? Vendor.worldline.rawValue
        guard let vendor = Vendor(rawValue: vendorName) else {
            throw DecodingError.dataCorruptedError(
                forKey: .vendor, in: container,
                debugDescription: "\"\(vendorName)\" is not a vendor (\(Vendor.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self.vendor = vendor
        country = try container.decode(String.self, forKey: .country)
        guard CountryCode.isAssigned(country) else {
            throw DecodingError.dataCorruptedError(
                forKey: .country, in: container, debugDescription: "\"\(country)\" is not an ISO 3166-1 alpha-2 country code")
        }
        currency = try container.decode(Currency.self, forKey: .currency)

        languages = try container.decode([TapOnMobileLanguage].self, forKey: .languages)
        for (index, language) in languages.enumerated() where languages[..<index].contains(language) {
            throw DecodingError.invalid(
                "\"\(language.rawValue)\" is listed twice",
                at: decoder.codingPath + [CodingKeys.languages, FieldKey(intValue: index)])
        }
        guard languages.contains(.english) else {
            throw DecodingError.dataCorruptedError(
                forKey: .languages, in: container, debugDescription: "must include english, the SDK's fallback language")
        }

        supportPhone = try container.decodeIfPresent(String.self, forKey: .supportPhone)
        if let supportPhone, !Self.isPhoneNumber(supportPhone) {
            throw DecodingError.dataCorruptedError(
                forKey: .supportPhone, in: container,
                debugDescription: "\"\(supportPhone)\" is not an international phone number (+, then digits and spaces)")
        }

        flavours = try container.decode(Flavours.self, forKey: .flavours)
        limits = try container.decode(Limits.self, forKey: .limits)
        features = try Features(from: decoder)

        // BLIK is a Polish scheme that settles in złoty only.
        if features.blik, currency.code != "PLN" {
            throw DecodingError.invalid(
                "BLIK pays in PLN only, but this region's currency is \(currency.code)",
                at: decoder.codingPath + [Features.CodingKeys.blik])
        }
    }

    /// Encodes the region in the shape of `environments.json`, feature switches flattened in.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        // Worldline's regions stay as the file writes them: without the key.
        if vendor != .worldline { try container.encode(vendor, forKey: .vendor) }
        try container.encode(country, forKey: .country)
        try container.encode(currency, forKey: .currency)
        try container.encode(languages, forKey: .languages)
        try container.encode(supportPhone, forKey: .supportPhone)
        try container.encode(flavours, forKey: .flavours)
        try container.encode(limits, forKey: .limits)
        try features.encode(to: encoder)
    }

    static func isRegionID(_ id: String) -> Bool {
        guard let first = id.first, first.isASCII, first.isUppercase else { return false }
        return id.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }
    }

    static func isPhoneNumber(_ text: String) -> Bool {
        guard text.hasPrefix("+") else { return false }
        let rest = text.dropFirst()
        let digits = rest.filter(\.isNumber).count
        return digits >= 6 && rest.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == " " }
    }
}
