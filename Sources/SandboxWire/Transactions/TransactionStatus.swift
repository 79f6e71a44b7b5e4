/// The seed's `TransactionStatus`: where a transaction stands. Case names are the wire values,
/// as the seed writes them (`TransactionStatus.CLEARED.rawValue == "CLEARED"`).
///
/// Every case is reachable on an environment host (docs/card-payments.md, "Statuses").
/// `AUTHORIZED` never stays at rest, because the host clears an authorisation at once as
/// Worldline does, but history filters still accept it.
///
/// ```swift
/// TransactionStatus(rawValue: "PIN_REQUESTED")   // .PIN_REQUESTED
/// TransactionStatus.DCC_REQUIRED.isInFlight      // true: the terminal is busy
/// ```
public enum TransactionStatus: String, Codable, Sendable, Equatable, CaseIterable {
    /// Authorised and cleared by the acquirer.
    case CLEARED
    /// Waiting for the customer's online PIN (60 s); if nothing follows, the status stays and no money moved.
    case PIN_REQUESTED
    /// Created, waiting for the card (120 s).
    case NEW
    /// Refused before authorisation by the device (overlay, app sent to the background).
    case REJECTED
    /// A cleared sale that a later `REFUND` transaction paid back.
    case REFUNDED
    /// 120 s to read the card, 60 s to enter the PIN or 30 s to authorise passed.
    case TIMEOUT
    /// Cancelled by the customer or merchant on the device.
    case USER_CANCELLED
    /// Not authorised because of a technical failure (magic amount 42.96).
    case ERROR
    /// Declined by the card kernel (an expired card).
    case TERMINAL_DECLINED
    /// Sent to the issuer, no answer yet (magic amount 42.68 until 30 s pass).
    case ONGOING
    /// Authorised, not yet cleared; the sandbox clears at once, so this never rests.
    case AUTHORIZED
    /// Refused by the issuer or acquirer.
    case DECLINED
    /// Reversed after a successful authorisation.
    case CANCELLED
    /// Waiting for the cardholder to accept or refuse Dynamic Currency Conversion
    /// (the SDK's `doMakeTransactionFinishDCC`).
    case DCC_REQUIRED

    /// Whether the transaction still waits for something, which keeps its terminal busy
    /// (`terminal_busy` for a new sale or refund): `NEW`, `ONGOING`, `PIN_REQUESTED` and
    /// `DCC_REQUIRED`.
    public var isInFlight: Bool {
        switch self {
        case .NEW, .ONGOING, .PIN_REQUESTED, .DCC_REQUIRED: true
        default: false
        }
    }
}
