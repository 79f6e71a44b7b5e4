import SandboxWire

extension APMConfig {
    /// The wire form of a configured brand.
    public init(_ brand: TerminalProfile.APMBrand) {
        self.init(
            brandName: APMPaymentData.APMBrand(rawValue: brand.brandName), brandFullName: brand.brandFullName,
            customId: brand.customId, isActive: brand.isActive)
    }
}
