import Foundation

extension CardData {
    /// A rule of a card read that a card breaks: the refusal it earns, the field, and why.
    ///
    /// ```swift
    /// let problem = card.problem        // pan: fails the Luhn check
    /// problem?.error == .invalidPAN     // true; problem?.error.message is the host's message
    /// ```
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// ``PayloadError/invalidPAN``, ``PayloadError/invalidCountry``, ``PayloadError/brandMismatch``
        /// or ``PayloadError/invalidCardData``, whose message is a sentence for the merchant.
        public let error: PayloadError
        /// The card field (`pan`, `country`, `aid` …).
        public let field: String
        /// The rule, in words (`fails the Luhn check`).
        public let reason: String

        public var description: String { "\(field): \(reason)" }
    }

    /// The first rule of a card read that this card breaks, or `nil`.
    ///
    /// Rules, in the order they are checked: PAN 12–19 digits (`invalid_pan`), Luhn-valid
    /// (`invalid_pan`), within the brand's IIN range and length (`brand_mismatch`); expiry `YYMM`
    /// with a month 01–12; country an ISO 3166-1 alpha-2 code of a country or territory
    /// (`invalid_card_country`); AID 5–16 bytes of hex, starting with the brand's RID
    /// (`brand_mismatch`); application label 1–16 characters; PAN sequence two digits or absent.
    /// The other fields' problems are `invalid_card_data`.
    public var problem: Problem? {
        func refuse(_ kind: PayloadError, _ field: String, _ reason: String, _ message: String) -> Problem {
            Problem(error: .card(kind, message), field: field, reason: reason)
        }
        guard Self.isDigits(pan, count: 12...19) else {
            return refuse(.invalidPAN, "pan", "must be 12 to 19 digits", "The card's PAN must be 12 to 19 digits.")
        }
        guard Luhn.isValid(pan) else {
            return refuse(.invalidPAN, "pan", "fails the Luhn check", "The card's PAN fails the Luhn check.")
        }
        if let rule = brand.panMismatch(pan) {
            return refuse(
                .brandMismatch, "pan", rule, "The card's brand \(brand.rawValue) does not match its PAN: \(rule).")
        }
        guard Self.isValidExpiry(expiry) else {
            return refuse(
                .invalidCardData, "expiry", "must be YYMM with a month 01-12", "The card's expiry must be YYMM with a month 01-12.")
        }
        guard Self.isCountry(country) else {
            let reason = "\"\(country)\" is not an ISO 3166-1 alpha-2 country code"
            return refuse(.invalidCountry, "country", reason, "The card's country \(reason).")
        }
        guard Self.isHex(aid, count: 10...32), aid.utf8.count.isMultiple(of: 2) else {
            return refuse(.invalidCardData, "aid", "must be 5 to 16 bytes of hex", "The card's AID must be 5 to 16 bytes of hex.")
        }
        guard aid.uppercased().hasPrefix(brand.applicationProviderID) else {
            let reason = "must start with \(brand.rawValue)'s RID \(brand.applicationProviderID)"
            return refuse(
                .brandMismatch, "aid", reason, "The card's brand \(brand.rawValue) does not match its AID: the AID \(reason).")
        }
        guard (1...16).contains(applicationLabel.count) else {
            return refuse(
                .invalidCardData, "applicationLabel", "must be 1 to 16 characters",
                "The card's application label must be 1 to 16 characters.")
        }
        if let panSequence, !Self.isDigits(panSequence, count: 2...2) {
            return refuse(
                .invalidCardData, "panSequence", "must be two digits or null", "The card's PAN sequence must be two digits or null.")
        }
        return nil
    }

    /// Whether `code` is an ISO 3166-1 alpha-2 code of a country or territory, in upper case.
    ///
    /// The list is Foundation's (CLDR's) ISO regions with two letters and no sub-regions: the
    /// 249 assigned codes and the few exceptionally reserved ones banks meet (`XK`, `IC` …); the
    /// groupings `EU`, `EZ`, `UN`, `QO` and the unknown region `ZZ` are refused.
    ///
    /// ```swift
    /// CardData.isCountry("BE")   // true
    /// CardData.isCountry("ZZ")   // false
    /// ```
    public static func isCountry(_ code: String) -> Bool {
        isCountryCode(code) && countries.contains(code)
    }

    /// Worked out once: ICU answers the region list in about a millisecond.
    private static let countries: Set<String> = Set(
        Locale.Region.isoRegions.lazy.filter { $0.identifier.utf8.count == 2 && $0.subRegions.isEmpty }.map(\.identifier))
}
