/// How a read ended when it produced no card: the `readerOutcome` a device sends instead of
/// a `cardPayload`.
///
/// | outcome | when | transaction status on the host |
/// |---|---|---|
/// | `cancelled` | the customer or the merchant closed the card screen | `USER_CANCELLED` |
/// | `timeout` | 40 s with no tap and Try Again declined, or no PIN within 60 s | `TIMEOUT` |
/// | `background` | the app went to the background mid-read | `REJECTED` |
///
/// ```swift
/// let body = ["readerOutcome": ReaderOutcome.timeout.rawValue]
/// ```
public enum ReaderOutcome: String, Codable, Sendable, CaseIterable {
    /// The customer or the merchant closed the card screen.
    case cancelled
    /// No tap within 40 s and no Try Again, or no PIN within 60 s.
    case timeout
    /// The app went to the background during the read.
    case background
}
