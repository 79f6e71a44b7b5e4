/// The back office's answer to `POST /backoffice/v1/challenges/confirm`: the back-office code the
/// device ends its portal registration with, and the terminal it registers on.
///
/// `tapsim` reads the code and the terminal; an answer without `expiresAt` still decodes.
///
/// ```json
/// {"backofficeCode":"EU-483920","expiresAt":"2026-12-01T10:10:00Z","terminalId":"EU-T0101"}
/// ```
public struct ChallengeConfirmation: Codable, Sendable, Equatable {
    /// `<REGION>-` and six digits, so a code taken to another host is recognised.
    public let backofficeCode: String
    /// The terminal named in the confirmation, or the merchant's first free one.
    public let terminalId: String
    /// When the back-office code stops being accepted (ten minutes on).
    public let expiresAt: String?

    public init(backofficeCode: String, terminalId: String, expiresAt: String?) {
        self.backofficeCode = backofficeCode
        self.terminalId = terminalId
        self.expiresAt = expiresAt
    }
}
