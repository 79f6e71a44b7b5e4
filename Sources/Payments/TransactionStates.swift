import Foundation

/// What a transaction intent does (Geopagos seed 003).
public enum TransactionType: String, Sendable, Equatable, Hashable, CaseIterable {
    /// A sale on the customer's card.
    case payment
    /// Money back to the card for an earlier payment (``RefundConfirmation`` names it).
    case refund
    /// The whole of a recent payment undone, with the same card (``CancelConfirmation`` names it).
    case cancel
}

/// The card Apple's screen read, as ``SDKTransactionState/confirmPayment(card:confirmCallback:rejectCallback:)`` shows it.
public struct Card: Sendable, Equatable, Hashable {
    /// The scheme, upper case (`VISA`, `MASTERCARD`).
    public let brand: String
    /// `400000******0005`.
    public let maskedPan: String
    public let last4: String
    /// The application the card paid with.
    public let application: EMVApp
    public let readMode: ReadMode
}

/// An EMV application of a card, offered in ``SDKTransactionState/selectEMVApp(availableAIDs:selectEMVAppCallback:)``.
public struct EMVApp: Sendable, Equatable, Hashable {
    /// The application identifier (`A0000000031010`).
    public let aid: String
    /// The label the card shows (`VISA CREDITO`).
    public let label: String
}

/// What the app adds to a payment when it confirms it.
public struct PaymentConfirmation: Sendable, Equatable, Hashable {
    /// Installments (cuotas); the sandbox's issuer takes 1 to 24.
    public let installments: Int
    /// The merchant's reference, kept on the transaction.
    public let reference: String?

    public init(installments: Int = 1, reference: String? = nil) {
        self.installments = installments
        self.reference = reference
    }
}

/// What a refund needs once the card is read: the payment it refunds.
public struct RefundConfirmation: Sendable, Equatable, Hashable {
    public let originalTransactionId: String
    public let reference: String?

    public init(originalTransactionId: String, reference: String? = nil) {
        self.originalTransactionId = originalTransactionId
        self.reference = reference
    }
}

/// What a cancel needs once the card is read: the payment it undoes (its whole amount, with its card).
public struct CancelConfirmation: Sendable, Equatable, Hashable {
    public let transactionId: String

    public init(transactionId: String) {
        self.transactionId = transactionId
    }
}

/// An approved payment, refund or cancel.
public struct TransactionApproved: Sendable, Equatable, Hashable {
    /// The host's id (what a refund or cancel names).
    public let transactionId: String
    public let type: TransactionType
    public let amount: Money
    public let authorizationCode: String?
    public let card: Card
    public let installments: Int
    /// When the host approved it.
    public let approvedAt: Date
    /// The host's status (`CLEARED`; a cancelled payment is `CANCELLED`).
    public let status: String
}

/// Why a transaction stopped or paused.
public enum TransactionError: Error, Sendable, Equatable, Hashable {
    /// Apple's card screen timed out after 40 s (recoverable: the recover callback is Try Again).
    case cardReadTimeout
    /// The customer closed Apple's card screen, or the app went to the background.
    case cardReadCancelled
    /// The confirmation came more than 120 s after the card read: the encrypted card data expired.
    case cardDataExpired
    /// The issuer declined; `code` is its ISO answer (`05`, `51`, `55` …).
    case declined(code: String)
    /// The app rejected the card in the confirm step.
    case rejected
    /// The read configuration cannot run on this reader (no `.nfc`, another currency, no amount).
    case invalidReadConfig
    /// The reader could not be connected (token cancelled, terms declined, a stopping notice …).
    case readerNotConnected
    /// The host refused the transaction; `code` is its stable error code (`amount_over_limit`,
    /// `transaction_not_cancellable`, `card_mismatch` …).
    case refused(code: String)
    /// The host could not be reached, or its answer was lost: the outcome is unknown.
    case connectionFailed
    /// The app chose a device no installer offers.
    case deviceNotFound
    /// A new transaction intent was created while this one ran.
    case aborted
}
