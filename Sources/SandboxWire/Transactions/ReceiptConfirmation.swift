/// The answer to `POST /terminal/v1/transactions/{id}/receipt` (the SDK's `getDigitalReceipt`):
/// a QR receipt's page, or word that the e-mail was sent.
///
/// ```json
/// { "status": "GENERATED", "url": "http://127.0.0.1:8101/receipts/…" }
/// ```
public struct ReceiptConfirmation: Codable, Sendable, Equatable, Hashable {
    /// `GENERATED` for a QR receipt, `SENT` for an e-mail.
    public enum Status: String, Codable, Sendable, CaseIterable {
        case GENERATED
        case SENT
    }

    public var status: Status
    /// The receipt page to show as a QR code (QR receipts only).
    public var url: String?

    public init(status: Status, url: String?) {
        self.status = status
        self.url = url
    }
}
