// The seed's enums of a transaction. Case names are the wire values, as the seed writes them
// (`TransactionStatus.AUTHORIZED.rawValue`, `PaymentMethod.CARD.rawValue`).

/// Where a transaction stands (seed "TransactionStatus").
public enum TransactionStatus: String, CaseIterable, Sendable, Codable {
    /// Authorised and cleared by the acquirer.
    case CLEARED
    /// The issuer wants the PIN; if nothing follows, the status stays and no money moved.
    case PIN_REQUESTED
    /// Created, waiting for the card.
    case NEW
    /// Refused before authorisation by the device (overlay, app sent to the background).
    case REJECTED
    /// A cleared sale that was refunded afterwards.
    case REFUNDED
    /// 120 s to read the card, 60 s to enter the PIN or 30 s to authorise passed.
    case TIMEOUT
    /// Cancelled by the customer or the merchant on the card screen.
    case USER_CANCELLED
    /// Not authorised because of a server error.
    case ERROR
    /// Declined by the reader's kernel (an expired card).
    case TERMINAL_DECLINED
    /// Sent to the issuer, no answer yet.
    case ONGOING
    /// Authorised; the sandbox clears at once, so this never rests.
    case AUTHORIZED
    /// Refused by the issuer.
    case DECLINED
    /// Reversed after authorisation.
    case CANCELLED
    /// Waiting for the customer's currency choice (``TapOnMobile/doMakeTransactionFinishDCC(transactionId:dccOfferAccepted:)``).
    case DCC_REQUIRED

    /// Whether the terminal still waits for something on this transaction (it is busy meanwhile).
    public var isInFlight: Bool {
        switch self {
        case .NEW, .ONGOING, .PIN_REQUESTED, .DCC_REQUIRED: true
        default: false
        }
    }
}

/// A sale (`AUTH`) or a refund (`REFUND`).
public enum TransactionType: String, CaseIterable, Sendable, Codable {
    case AUTH
    case REFUND
}

/// How the customer paid.
public enum PaymentMethod: String, CaseIterable, Sendable, Codable {
    case CARD
    case QRCODE
    case BLIK
    case UNKNOWN
}

/// The state of a Dynamic Currency Conversion offer.
public enum DCCStatus: String, CaseIterable, Sendable, Codable {
    case OFFERED
    case ACCEPTED
    case DECLINED
}

/// What ``TapOnMobile/validateTransaction(transactionServiceType:requestedAmount:validate:)`` checks.
public enum TransactionServiceType: String, CaseIterable, Sendable, Codable {
    case payment = "PAYMENT"
    case refund = "REFUND"
    case reversal = "REVERSAL"
}

/// How ``TapOnMobile/getTransactionsStatistics(fromDate:toDate:statisticsType:)`` groups.
public enum TransactionsStatisticsType: String, CaseIterable, Sendable, Codable {
    /// One group per UTC day.
    case daily
    /// One group per card brand.
    case brand
}

/// The two digital receipts.
public enum ReceiptType: String, CaseIterable, Sendable, Codable {
    /// A URL to show as a QR code.
    case qrCode = "QR"
    /// Sent to an e-mail address.
    case email = "EMAIL"
}

/// The ways a terminal may be registered (``InfoInit/registerOptions``).
public enum RegisterOptions: String, CaseIterable, Sendable, Codable {
    /// Challenge code confirmed in the merchant portal.
    case portal
    /// Backend-to-backend registration token.
    case registrationCode
}
