/// What the simulated issuer answers to an amount: the status a card sale ends in and the
/// response code and message the transaction carries.
///
/// ```swift
/// let outcome = magicAmounts.outcome(forBaseAmount: 1051)
/// outcome.kind           // .insufficientFunds
/// outcome.status         // .declined
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
        /// The host fails, `96`: `ERROR`.
        case systemMalfunction

        /// The status this behaviour leaves the transaction in; a rule in the file must name it.
        public var status: TransactionStatus {
            switch self {
            case .approve: .cleared
            case .doNotHonour, .insufficientFunds, .expiredCard, .wrongPin, .issuerUnavailable: .declined
            case .pinRequired: .pinRequested
            case .authorisationTimeout: .ongoing
            case .systemMalfunction: .error
            }
        }
    }
}
