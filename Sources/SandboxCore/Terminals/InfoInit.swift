/// The seed's `InfoInit`: what `GET /terminal/v1/info-init` answers before login and registration.
///
/// ```json
/// { "isAutoLoginEnabled": true, "registerOptions": ["portal", "registrationCode"] }
/// ```
public struct InfoInit: Codable, Sendable, Equatable {
    /// Whether `doLogin` works without the secure code.
    public var isAutoLoginEnabled: Bool
    /// The seed's `RegisterOptions` case names: `portal`, `registrationCode`.
    public var registerOptions: [String]

    public init(isAutoLoginEnabled: Bool, registerOptions: [String]) {
        self.isAutoLoginEnabled = isAutoLoginEnabled
        self.registerOptions = registerOptions
    }

    /// A terminal's login and registration settings, register options in the profile's order.
    public init(terminal: TerminalProfile) {
        self.init(isAutoLoginEnabled: terminal.autoLogin, registerOptions: terminal.registerOptions.map(\.rawValue))
    }
}
