// The SDK's own enums of a transaction; the wire's (`TransactionStatus`, `TransactionType`,
// `PaymentMethod`, `DCCStatus`, `TransactionsStatisticsType`) are SandboxWire's.

/// What ``TapOnMobile/validateTransaction(transactionServiceType:requestedAmount:validate:)`` checks.
public enum TransactionServiceType: String, CaseIterable, Sendable, Codable {
    case payment = "PAYMENT"
    case refund = "REFUND"
    case reversal = "REVERSAL"
}

/// The two digital receipts.
public enum ReceiptType: String, CaseIterable, Sendable, Codable {
    /// A URL to show as a QR code.
    case qrCode = "QR"
    /// Sent to an e-mail address.
    case email = "EMAIL"
}
