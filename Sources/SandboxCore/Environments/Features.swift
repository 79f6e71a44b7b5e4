/// What a region's terminals can do beyond a card sale, as switches a tester flips in the file.
///
/// In JSON these fields sit directly in the region object (and in ``EnvironmentView``),
/// not under a key of their own, so a switch reads `regions[0].dcc`.
///
/// ```json
/// { "apms": ["ALIPAY", "WECHATPAY"], "blik": false, "dcc": true, "tips": true, "refunds": true, "reversals": true }
/// ```
public struct Features: Codable, Sendable, Equatable {
    /// The QR wallet brands (APMs) offered, upper case as the SDK's `APMBrand` names them;
    /// empty when the region has none. BLIK is not listed here: ``blik`` switches it.
    public var apms: [String]
    /// Whether BLIK payments (6-digit code, PLN only) are offered.
    public var blik: Bool
    /// Whether card sales may be offered Dynamic Currency Conversion.
    public var dcc: Bool
    /// Whether a sale may carry a tip (`tipEnabled`).
    public var tips: Bool
    /// Whether refunds are permitted by default (`isRefundAvailable`).
    public var refunds: Bool
    /// Whether reversals are permitted by default (`isReversalAvailable`).
    public var reversals: Bool

    public init(apms: [String] = [], blik: Bool = false, dcc: Bool = false, tips: Bool = false,
                refunds: Bool = true, reversals: Bool = true) {
        self.apms = apms
        self.blik = blik
        self.dcc = dcc
        self.tips = tips
        self.refunds = refunds
        self.reversals = reversals
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case apms, blik, dcc, tips, refunds, reversals
    }

    /// Decodes the switches from the enclosing object (they are flattened into it).
    ///
    /// - Throws: `DecodingError` for a missing or mistyped switch, or an APM brand that is
    ///   not an upper-case name, is listed twice, or is BLIK.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        apms = try container.decode([String].self, forKey: .apms)
        for (index, brand) in apms.enumerated() {
            let path = decoder.codingPath + [CodingKeys.apms, FieldKey(intValue: index)]
            if brand == "BLIK" {
                throw DecodingError.invalid("BLIK is not a QR wallet; switch it with \"blik\"", at: path)
            }
            if !Self.isBrandName(brand) {
                throw DecodingError.invalid(
                    "\"\(brand)\" is not an APM brand name (upper-case letters, digits and underscores, e.g. ALIPAY)", at: path)
            }
            if apms[..<index].contains(brand) {
                throw DecodingError.invalid("\"\(brand)\" is listed twice", at: path)
            }
        }
        blik = try container.decode(Bool.self, forKey: .blik)
        dcc = try container.decode(Bool.self, forKey: .dcc)
        tips = try container.decode(Bool.self, forKey: .tips)
        refunds = try container.decode(Bool.self, forKey: .refunds)
        reversals = try container.decode(Bool.self, forKey: .reversals)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(apms, forKey: .apms)
        try container.encode(blik, forKey: .blik)
        try container.encode(dcc, forKey: .dcc)
        try container.encode(tips, forKey: .tips)
        try container.encode(refunds, forKey: .refunds)
        try container.encode(reversals, forKey: .reversals)
    }

    static func isBrandName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isUppercase else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }
    }
}
