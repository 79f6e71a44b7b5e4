/// The answer to a completed registration, by back-office code
/// (`POST /terminal/v1/registrations/complete`) or by token (`POST /terminal/v1/token-registrations/end`):
/// the terminal and the device secret the device logs in with from now on.
///
/// The SDK keeps `deviceSecret`; an answer without `registeredAt` (an older host) still decodes.
///
/// ```json
/// {"deviceSecret":"ds_…","registeredAt":"2026-12-01T10:00:00Z","terminalId":"EU-T0101"}
/// ```
public struct RegistrationResult: Codable, Sendable, Equatable {
    public let terminalId: String
    /// `ds_` and 64 hex digits; the host keeps only its hash.
    public let deviceSecret: String
    public let registeredAt: String?

    public init(terminalId: String, deviceSecret: String, registeredAt: String?) {
        self.terminalId = terminalId
        self.deviceSecret = deviceSecret
        self.registeredAt = registeredAt
    }
}
