/// The seed's `InfoInit`: what the terminal allows before and around login, as
/// `GET /terminal/v1/info-init` answers it.
///
/// ```json
/// { "isAutoLoginEnabled": true, "registerOptions": ["portal", "registrationCode"] }
/// ```
public struct InfoInit: Codable, Sendable, Equatable, Hashable {
    /// Whether `doLogin` works without the secure code.
    public var isAutoLoginEnabled: Bool
    /// How a device may be registered on this terminal.
    public var registerOptions: [RegisterOptions]

    public init(isAutoLoginEnabled: Bool, registerOptions: [RegisterOptions]) {
        self.isAutoLoginEnabled = isAutoLoginEnabled
        self.registerOptions = registerOptions
    }
}
