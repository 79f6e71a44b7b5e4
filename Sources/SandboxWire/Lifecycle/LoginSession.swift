/// The answer to `POST /terminal/v1/sessions` (the seed's `doLogin`): the bearer token of the new
/// session and when it ends.
///
/// The host always writes every field; the SDK needs the token and `expiresAt` (it reads
/// `expiresAtUnix` when present, as an older host left it out).
///
/// ```json
/// {"expiresAt":"2026-12-01T10:10:00Z","expiresAtUnix":1796119800,"sessionToken":"st_…","terminalId":"EU-T0101"}
/// ```
public struct LoginSession: Codable, Sendable, Equatable {
    /// `st_` and 64 hex digits, sent as `Authorization: Bearer …`.
    public let sessionToken: String
    public let terminalId: String?
    public let expiresAt: String
    public let expiresAtUnix: Double?

    public init(sessionToken: String, terminalId: String?, expiresAt: String, expiresAtUnix: Double?) {
        self.sessionToken = sessionToken
        self.terminalId = terminalId
        self.expiresAt = expiresAt
        self.expiresAtUnix = expiresAtUnix
    }
}
