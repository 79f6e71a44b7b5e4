import SandboxWire

extension DynamicProperties {
    /// A terminal's dynamic properties: its profile's links and timings, its tip rates
    /// (none while tips are off, on the terminal or in the region) and its reference rule
    /// (no pattern while references are off).
    public init(terminal: TerminalProfile, region: Region) {
        let profile = terminal.dynamicProperties
        let tipsEnabled = terminal.tips.enabled && region.features.tips
        self.init(
            privacyPolicyUrl: profile.privacyPolicyUrl, cookiesPolicyUrl: profile.cookiesPolicyUrl,
            userAgreementUrl: profile.userAgreementUrl, email: profile.email, whatsapp: profile.whatsapp,
            phone: profile.phone, apmTimeout: profile.apmTimeout, apmPulling: profile.apmPulling,
            apmRefundTimeout: profile.apmRefundTimeout, rates: tipsEnabled ? terminal.tips.rates : [],
            referencePattern: terminal.reference.enabled ? terminal.reference.pattern : nil,
            referenceEnabled: terminal.reference.enabled,
            blikTimeout: profile.blikTimeout, blikPulling: profile.blikPulling)
    }
}
