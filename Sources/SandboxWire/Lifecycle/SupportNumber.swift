/// The answer to `POST /terminal/v1/support-number` (the seed's `loadSupportNumber`): one number
/// per installation, kept across registrations.
///
/// ```json
/// {"supportNumber":"SN-12345678"}
/// ```
public struct SupportNumber: Codable, Sendable, Equatable {
    /// `SN-` and eight digits.
    public let supportNumber: String

    public init(supportNumber: String) {
        self.supportNumber = supportNumber
    }
}
