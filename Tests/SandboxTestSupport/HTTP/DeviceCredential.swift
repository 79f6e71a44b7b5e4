/// What a registered device keeps: its id and secret, and the terminal it sits on.
public struct DeviceCredential: Sendable {
    public var deviceId: String
    public var secret: String
    public var terminalId: String

    public init(deviceId: String, secret: String, terminalId: String) {
        self.deviceId = deviceId
        self.secret = secret
        self.terminalId = terminalId
    }

    /// The `{deviceId, deviceSecret}` body of login, unregister and device status.
    public var body: [String: Any] { ["deviceId": deviceId, "deviceSecret": secret] }
}
