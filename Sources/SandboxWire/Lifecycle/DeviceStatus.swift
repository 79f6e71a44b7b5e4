/// The answer to `POST /terminal/v1/devices/status` (the seed's `isDeviceRegistered`), as the host
/// sees the device: a wrong secret is simply "not registered", and then no terminal is written.
///
/// ```json
/// {"registered":true,"terminalId":"EU-T0101"}
/// {"registered":false}
/// ```
public struct DeviceStatus: Codable, Sendable, Equatable {
    public let registered: Bool
    public let terminalId: String?

    public init(registered: Bool, terminalId: String?) {
        self.registered = registered
        self.terminalId = terminalId
    }
}
