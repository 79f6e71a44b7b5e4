/// How the cardholder is verified on a read (the card's CVM).
///
/// Written `"none"` or `"onlinePin"` on the wire. `noCVM` avoids a case named `none`,
/// which would read as `Optional.none` wherever the value is optional.
///
/// ```swift
/// if card.cvm == .onlinePin { /* the reader asks for the PIN */ }
/// ```
public enum CardholderVerification: String, Codable, Sendable, CaseIterable {
    /// No verification (contactless below the CVM limit, or a consumer device).
    case noCVM = "none"
    /// The PIN typed on the reader goes to the issuer with the authorisation.
    case onlinePin
}
