/// A card scheme, as written in payloads, `cards.json` and transaction details.
///
/// The raw values are the contract's upper-case names. `EFTPOS` is Australia's domestic
/// scheme (ANZ region).
///
/// ```swift
/// let brand = CardBrand(rawValue: "VISA")   // .visa
/// brand?.applicationProviderID              // "A000000003"
/// ```
public enum CardBrand: String, Codable, Sendable, CaseIterable {
    case visa = "VISA"
    case mastercard = "MASTERCARD"
    case maestro = "MAESTRO"
    case amex = "AMEX"
    case discover = "DISCOVER"
    case jcb = "JCB"
    case unionPay = "UNIONPAY"
    case eftpos = "EFTPOS"

    /// The registered application provider identifier (RID, the first five bytes of an AID)
    /// of the scheme, in upper-case hex.
    ///
    /// Maestro shares Mastercard's RID.
    public var applicationProviderID: String {
        switch self {
        case .visa: "A000000003"
        case .mastercard, .maestro: "A000000004"
        case .amex: "A000000025"
        case .discover: "A000000152"
        case .jcb: "A000000065"
        case .unionPay: "A000000333"
        case .eftpos: "A000000384"
        }
    }
}
