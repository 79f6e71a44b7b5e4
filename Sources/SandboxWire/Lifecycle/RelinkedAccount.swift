/// The answer to `POST /terminal/v1/relink` (the seed's `relinkAccount`): when the host recorded
/// that the merchant's Tap to Pay terms were signed again.
///
/// ```json
/// {"relinkedAt":"2026-12-01T10:00:00Z"}
/// ```
public struct RelinkedAccount: Codable, Sendable, Equatable {
    /// Absent from an older host's answer: the SDK only needs the call to succeed.
    public let relinkedAt: String?

    public init(relinkedAt: String?) {
        self.relinkedAt = relinkedAt
    }
}
