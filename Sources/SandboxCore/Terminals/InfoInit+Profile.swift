import SandboxWire

extension InfoInit {
    /// A terminal's login and registration settings, register options in the profile's order.
    public init(terminal: TerminalProfile) {
        self.init(isAutoLoginEnabled: terminal.autoLogin, registerOptions: terminal.registerOptions)
    }
}
