/// The seed's `APMConfig`: one QR wallet brand of a terminal, as `TerminalInfo.apmConfig` lists it.
///
/// ```json
/// { "brandName": "ALIPAY", "brandFullName": "Alipay+", "customId": "alipay-eu-m01", "isActive": true }
/// ```
public struct APMConfig: Codable, Sendable, Equatable, Hashable {
    /// The brand, upper case, e.g. `ALIPAY`.
    public var brandName: APMPaymentData.APMBrand
    /// A display name, or nil.
    public var brandFullName: String?
    /// The acquirer's identifier of this integration, or nil.
    public var customId: String?
    /// Whether the brand may be used now.
    public var isActive: Bool

    public init(brandName: APMPaymentData.APMBrand, brandFullName: String? = nil, customId: String? = nil, isActive: Bool) {
        self.brandName = brandName
        self.brandFullName = brandFullName
        self.customId = customId
        self.isActive = isActive
    }

    enum CodingKeys: String, CodingKey {
        case brandName, brandFullName, customId, isActive
    }

    /// Writes every field, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(brandName, forKey: .brandName)
        try container.encode(brandFullName, forKey: .brandFullName)
        try container.encode(customId, forKey: .customId)
        try container.encode(isActive, forKey: .isActive)
    }
}
