/// The seed's `RegisterOptions`: the ways a terminal may be registered (`InfoInit.registerOptions`,
/// a terminal profile's `registerOptions`).
public enum RegisterOptions: String, CaseIterable, Sendable, Codable {
    /// The merchant confirms the device's challenge code in the portal.
    case portal
    /// The merchant's backend issues a registration token (backend to backend).
    case registrationCode
}
