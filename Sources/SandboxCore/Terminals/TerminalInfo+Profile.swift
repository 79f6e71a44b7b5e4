import SandboxWire

extension TerminalInfo {
    /// A terminal as its device sees it.
    ///
    /// The region has the last word: a switch it turns off (`refunds`, `reversals`, `tips`,
    /// `blik`, no `apms`) is off on every terminal, and the limit never exceeds its maximum. Tip
    /// caps left null on the terminal are the region's.
    ///
    /// ```swift
    /// let info = TerminalInfo(terminal: terminal, merchant: merchant, region: region)
    /// info.currency.code        // "EUR"
    /// info.decimalDigitCount    // 2
    /// ```
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
}
