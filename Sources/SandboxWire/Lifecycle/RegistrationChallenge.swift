/// The answer to `POST /terminal/v1/registrations` (the seed's `beginRegistration`): the challenge
/// code a merchant types into the portal, which gives the device a back-office code in return.
///
/// The host always writes every field; the SDK needs only `challengeCode`, so an answer without
/// the expiry still decodes.
///
/// ```json
/// {"challengeCode":"ABCD-EFGH","expiresAt":"2026-12-01T10:10:00Z","expiresAtUnix":1796119800}
/// ```
public struct RegistrationChallenge: Codable, Sendable, Equatable {
    /// Eight characters without look-alikes, shown `ABCD-EFGH`.
    public let challengeCode: String
    /// When the code stops being accepted by the portal (ten minutes on).
    public let expiresAt: String?
    /// The same time in seconds since 1970.
    public let expiresAtUnix: Double?

    public init(challengeCode: String, expiresAt: String?, expiresAtUnix: Double?) {
        self.challengeCode = challengeCode
        self.expiresAt = expiresAt
        self.expiresAtUnix = expiresAtUnix
    }
}
