/// The seed's `TransactionStatus`: where a transaction stands, as the wire spells it.
///
/// Every case is reachable on an environment host (docs/card-payments.md, "Statuses").
/// `AUTHORIZED` never stays at rest, because the host clears an authorisation at once as
/// Worldline does, but history filters still accept it.
///
/// ```swift
/// TransactionStatus(rawValue: "PIN_REQUESTED")   // .pinRequested
/// TransactionStatus.dccRequired.isInFlight       // true: the terminal is busy
/// ```
public enum TransactionStatus: String, Codable, Sendable, Equatable, CaseIterable {
    /// Authorised and cleared by the acquirer.
    case cleared = "CLEARED"
    /// Waiting for the customer's online PIN (60 s).
    case pinRequested = "PIN_REQUESTED"
    /// Created, waiting for the card (120 s).
    case new = "NEW"
    /// Refused before authorisation by the device (app sent to the background).
    case rejected = "REJECTED"
    /// A cleared sale that a later `REFUND` transaction paid back.
    case refunded = "REFUNDED"
    /// Card, PIN or authorisation came too late.
    case timeout = "TIMEOUT"
    /// Cancelled by the customer or merchant on the device.
    case userCancelled = "USER_CANCELLED"
    /// Not authorised because of a technical failure (magic amount 42.96).
    case error = "ERROR"
    /// Declined by the card kernel (an expired card).
    case terminalDeclined = "TERMINAL_DECLINED"
    /// Sent to the issuer, no answer yet (magic amount 42.68 until 30 s pass).
    case ongoing = "ONGOING"
    /// Authorised, not yet cleared.
    case authorized = "AUTHORIZED"
    /// Refused by the issuer or acquirer.
    case declined = "DECLINED"
    /// Reversed after a successful authorisation.
    case cancelled = "CANCELLED"
    /// Waiting for the cardholder to accept or refuse Dynamic Currency Conversion.
    case dccRequired = "DCC_REQUIRED"

    /// Whether the transaction still waits for something, which keeps its terminal busy
    /// (`terminal_busy` for a new sale or refund): `NEW`, `ONGOING`, `PIN_REQUESTED` and
    /// `DCC_REQUIRED`.
    public var isInFlight: Bool {
        switch self {
        case .new, .ongoing, .pinRequested, .dccRequired: true
        default: false
        }
    }
}
