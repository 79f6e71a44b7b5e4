import Foundation

/// What the host says of a registration token before it is used (not in the seed, whose
/// ``TapOnMobile/verifyRegistrationToken(registrationToken:)`` answers a bare `Bool`).
///
/// An app asks for the secure code up front when ``pinRequired`` is true, instead of learning it
/// at the last step; a token that cannot be used says why in ``refusal``.
///
/// ```swift
/// let check = try await sdk.checkRegistrationToken(registrationToken: token).get()
/// if let refusal = check.refusal { print(refusal.code, refusal.message) }     // registration_token_used …
/// else if check.pinRequired && pin == nil { askForSecureCode() }
/// ```
public struct RegistrationTokenCheck: Sendable, Equatable {
    /// Whether begin and end may follow now.
    public var valid: Bool
    /// The terminal the token registers, when valid.
    public var terminalId: String?
    /// Whether ending the registration needs a secure code (the terminal has no auto-login).
    public var pinRequired: Bool
    /// When not valid: the error the next step would give, with the host's code and message.
    public var refusal: TapOnMobileError?

    public init(valid: Bool, terminalId: String? = nil, pinRequired: Bool = false, refusal: TapOnMobileError? = nil) {
        self.valid = valid
        self.terminalId = terminalId
        self.pinRequired = pinRequired
        self.refusal = refusal
    }
}
