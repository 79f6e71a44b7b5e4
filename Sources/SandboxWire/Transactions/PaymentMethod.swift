/// The seed's `PaymentMethod`: how the customer paid.
public enum PaymentMethod: String, Codable, Sendable, Equatable, CaseIterable {
    /// A contactless card on the (simulated) Tap to Pay reader.
    case CARD
    /// A QR wallet order (an APM such as Alipay).
    case QRCODE
    /// A BLIK code.
    case BLIK
    /// Anything else.
    case UNKNOWN
}
