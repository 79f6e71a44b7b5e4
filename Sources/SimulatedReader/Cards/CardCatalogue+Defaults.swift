import CardPayload

extension CardCatalogue {
    /// The card a customer taps when none is named: the terminal country's own card, so a sale
    /// on any region is approved without a DCC offer (a foreign card stops at `DCC_REQUIRED`).
    ///
    /// The rule: the first card in file order issued in `country` with the CVM asked for and no
    /// flags; when the file has none for that country, the first card anywhere with that CVM and
    /// no flags. Reorder `cards.json` to change a country's default.
    ///
    /// ```swift
    /// catalogue.defaultCard(forCountry: "BE")?.name             // "visa"
    /// catalogue.defaultCard(forCountry: "AU")?.name             // "eftpos-au"
    /// catalogue.defaultCard(forCountry: "PL", pin: true)?.name  // "mc-pin-pl"
    /// ```
    ///
    /// - Parameters:
    ///   - country: The terminal's (its region's) country, ISO 3166-1 alpha-2.
    ///   - pin: `true` for an online-PIN card (the reader asks for the PIN), `false` for one without.
    /// - Returns: The card, or `nil` when the catalogue has no unflagged card with that CVM.
    public func defaultCard(forCountry country: String, pin: Bool = false) -> TestCard? {
        let cvm: CardholderVerification = pin ? .onlinePin : .noCVM
        let candidates = cards.filter { $0.cvm == cvm && $0.flags.isEmpty }
        return candidates.first { $0.country == country } ?? candidates.first
    }
}
