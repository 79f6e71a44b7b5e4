/// The seed's `PaymentMethod`: how the customer paid.
public enum PaymentMethod: String, Codable, Sendable, Equatable, CaseIterable {
    /// A contactless card on the (simulated) Tap to Pay reader.
    case card = "CARD"
    /// A QR wallet order (an APM such as Alipay).
    case qrCode = "QRCODE"
    /// A BLIK code.
    case blik = "BLIK"
    /// Anything else.
    case unknown = "UNKNOWN"
}
