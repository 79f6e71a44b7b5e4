/// The answer to `GET /terminal/v1/sessions/current` (the seed's `getSessionExpiration`): when
/// the running session ends, on the host's clock.
///
/// ```json
/// {"expiresAt":"2026-12-01T10:10:00Z","expiresAtUnix":1796119800,"terminalId":"EU-T0101"}
/// ```
public struct SessionState: Codable, Sendable, Equatable {
    public let terminalId: String?
    public let expiresAt: String
    /// The same time in seconds since 1970 (an older host left it out: then `expiresAt` is read).
    public let expiresAtUnix: Double?

    public init(terminalId: String?, expiresAt: String, expiresAtUnix: Double?) {
        self.terminalId = terminalId
        self.expiresAt = expiresAt
        self.expiresAtUnix = expiresAtUnix
    }
}
