/// How many transactions match the filters (seed "TransactionsCount").
public struct TransactionsCount: Codable, Sendable, Equatable, Hashable {
    public var count: Int

    public init(count: Int) {
        self.count = count
    }
}

/// The answer to ``TapOnMobile/getDigitalReceipt(from:receiptType:email:)``.
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
