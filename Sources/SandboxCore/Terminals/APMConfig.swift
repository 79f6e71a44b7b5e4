/// The seed's `APMConfig`: one QR wallet brand of a terminal, as `TerminalInfo.apmConfig` lists it.
///
/// ```json
/// { "brandName": "ALIPAY", "brandFullName": "Alipay+", "customId": "alipay-eu-m01", "isActive": true }
/// ```
public struct APMConfig: Codable, Sendable, Equatable {
    /// The brand, upper case as the SDK's `APMBrand` names it, e.g. `ALIPAY`.
    public var brandName: String
    /// A display name, or nil.
    public var brandFullName: String?
    /// The acquirer's identifier of this integration, or nil.
    public var customId: String?
    /// Whether the brand may be used now.
    public var isActive: Bool

    public init(brandName: String, brandFullName: String?, customId: String?, isActive: Bool) {
        self.brandName = brandName
        self.brandFullName = brandFullName
        self.customId = customId
        self.isActive = isActive
    }

    /// The wire form of a configured brand.
    public init(_ brand: TerminalProfile.APMBrand) {
        self.init(brandName: brand.brandName, brandFullName: brand.brandFullName, customId: brand.customId, isActive: brand.isActive)
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
