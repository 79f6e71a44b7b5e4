import SandboxWire

/// What the simulated issuer answers to an amount: the status a card sale ends in and the
/// response code and message the transaction carries.
///
/// ```swift
/// let outcome = magicAmounts.outcome(forBaseAmount: 4251, currency: euro, region: "EU")
/// outcome.kind           // .insufficientFunds
/// outcome.status         // .DECLINED
/// outcome.responseCode   // "51"
/// ```
public struct MagicOutcome: Sendable, Equatable {
    /// Which behaviour the host plays.
    public var kind: Kind
    /// The status the transaction takes: ``Kind/status`` of ``kind``.
    public var status: TransactionStatus { kind.status }
    /// The issuer's response code, two characters (`00`, `51`).
    public var responseCode: String
    /// The issuer's response message (`TransactionDetail.responseMsg`).
    public var responseMessage: String

    public init(kind: Kind, responseCode: String, responseMessage: String) {
        self.kind = kind
        self.responseCode = responseCode
        self.responseMessage = responseMessage
    }

    /// What every amount without a rule gets: cleared with `00` "Approved".
    public static let approved = MagicOutcome(kind: .approve, responseCode: "00", responseMessage: "Approved")

    /// What a trigger amount without a rule answers: Worldline's 42.XX answers ISO response code
    /// XX, so the sandbox declines with that code and a message that names it.
    ///
    /// - Parameter responseCode: the XX of 42.XX, `"01"` to `"99"`.
    public static func declined(responseCode: String) -> MagicOutcome {
        MagicOutcome(kind: .decline, responseCode: responseCode, responseMessage: "Declined by the issuer (response code \(responseCode))")
    }

    /// The behaviours a magic amount can ask for, spelt as in `magic-amounts.json`.
    public enum Kind: String, Codable, Sendable, Equatable, CaseIterable {
        /// Authorised and cleared at once.
        case approve
        /// Declined, `05`.
        case doNotHonour
        /// Declined, `51`.
        case insufficientFunds
        /// Declined by the issuer as expired, `54` (unlike an expired test card, which the
        /// reader's kernel refuses as `TERMINAL_DECLINED`).
        case expiredCard
        /// Declined, `55`, as if the PIN were wrong.
        case wrongPin
        /// A soft decline asking for the online PIN, `65`: `PIN_REQUESTED`.
        case pinRequired
        /// No issuer answer: `ONGOING`, then `TIMEOUT` once 30 s pass on the host clock, `68`.
        case authorisationTimeout
        /// Declined, `91`.
        case issuerUnavailable
        /// Declined with the rule's own response code and message (and what a trigger amount
        /// without a rule answers).
        case decline
        /// The host fails, `96`: `ERROR`.
        case systemMalfunction

        /// The status this behaviour leaves the transaction in; a rule in the file must name it.
        public var status: TransactionStatus {
            switch self {
            case .approve: .CLEARED
            case .doNotHonour, .insufficientFunds, .expiredCard, .wrongPin, .issuerUnavailable, .decline: .DECLINED
            case .pinRequired: .PIN_REQUESTED
            case .authorisationTimeout: .ONGOING
            case .systemMalfunction: .ERROR
            }
        }
    }
}
