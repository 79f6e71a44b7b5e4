/// The answer to `POST /backoffice/v1/registration-tokens` and `POST /merchant/v1/registration-tokens`:
/// a one-time token a merchant's backend hands to a device for a backend-to-backend registration.
///
/// The host always writes the expiry, the QR payload and its SVG, and `emailedTo` when it mailed
/// the token; `tapsim` needs only the token and its terminal, so the rest may be absent.
///
/// ```json
/// {"emailedTo":"owner@example.com","expiresAt":"2026-12-02T10:00:00Z","qrPayload":"taponmobile://register?environment=EU&token=rt_eu_…",
///  "qrSvg":"<svg …>","registrationToken":"rt_eu_…","terminalId":"EU-T0101"}
/// ```
public struct IssuedRegistrationToken: Codable, Sendable, Equatable {
    /// `rt_<region>_` and 32 hex digits.
    public let registrationToken: String
    public let terminalId: String
    /// When the token stops being accepted (a day on).
    public let expiresAt: String?
    /// The link an app opens, or a camera scans, to register with the token.
    public let qrPayload: String?
    /// That link as a QR code in SVG.
    public let qrSvg: String?
    /// The address the token was mailed to (into the sandbox mailbox), when it was.
    public let emailedTo: String?

    public init(
        registrationToken: String, terminalId: String, expiresAt: String?, qrPayload: String?, qrSvg: String?, emailedTo: String?
    ) {
        self.registrationToken = registrationToken
        self.terminalId = terminalId
        self.expiresAt = expiresAt
        self.qrPayload = qrPayload
        self.qrSvg = qrSvg
        self.emailedTo = emailedTo
    }
}
