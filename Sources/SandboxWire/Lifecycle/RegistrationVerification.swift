/// The answer to both verify calls: `POST /terminal/v1/registrations/verify-code` (the seed's
/// `verifyChallengeCode`) and `POST /terminal/v1/token-registrations/verify`
/// (`verifyRegistrationToken`).
///
/// A refused code or token is still a 200 answer: `reason` and `message` are the error the next
/// step would give, so a device can show the real reason without trying it. Absent fields are
/// left out when written.
///
/// ```json
/// {"pinRequired":true,"terminalId":"EU-T0101","valid":true}
/// {"message":"The registration token expired; ask for a new one.","reason":"registration_token_expired","valid":false}
/// ```
public struct RegistrationVerification: Codable, Sendable, Equatable {
    public let valid: Bool
    /// The error code completing with this value would give, when it is not valid.
    public let reason: String?
    /// That error's message.
    public let message: String?
    /// The terminal a valid registration token registers (token verify only).
    public let terminalId: String?
    /// Whether ending the registration needs a secure code, because the terminal has no
    /// auto-login (token verify only): a device asks for it before it spends the token.
    public let pinRequired: Bool?

    public init(valid: Bool, reason: String?, message: String?, terminalId: String?, pinRequired: Bool?) {
        self.valid = valid
        self.reason = reason
        self.message = message
        self.terminalId = terminalId
        self.pinRequired = pinRequired
    }
}
