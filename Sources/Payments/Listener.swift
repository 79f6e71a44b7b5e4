import Foundation

/// Where a transaction stands, and what it needs from the app (Geopagos seed 003). The callbacks
/// may be called at once or later, from any thread; each counts once.
public enum SDKTransactionState: Sendable {
    /// Pick the reader (``PaymentsSDK/availableDevices``).
    case provideDevice(provideDeviceCallback: @Sendable (Device) -> Void)
    /// Say what to collect.
    case provideReadConfig(provideReadConfigCallback: @Sendable (ReadConfig) -> Void)
    /// The card has several applications: pick one.
    case selectEMVApp(availableAIDs: [EMVApp], selectEMVAppCallback: @Sendable (EMVApp) -> Void)
    /// The card is read: confirm the payment (within 120 s of the read) or reject it.
    case confirmPayment(card: Card, confirmCallback: @Sendable (PaymentConfirmation) -> Void, rejectCallback: @Sendable () -> Void)
    /// The card is read: name the payment to refund (within 120 s) or reject.
    case confirmRefund(card: Card, confirmCallback: @Sendable (RefundConfirmation) -> Void, rejectCallback: @Sendable () -> Void)
    /// The card is read: name the payment to cancel (within 120 s) or reject.
    case confirmCancel(card: Card, confirmCallback: @Sendable (CancelConfirmation) -> Void, rejectCallback: @Sendable () -> Void)
    /// The host approved it.
    case approved(transactionApproved: TransactionApproved)
    /// Paused: call `recoverCallback` to go on (after ``TransactionError/cardReadTimeout``, it is
    /// Apple's Try Again: the card screen comes back in the same transaction).
    case recoverableError(error: TransactionError, recoverCallback: @Sendable () -> Void)
    /// Ended without approval; start a new intent.
    case nonRecoverableError(error: TransactionError, message: String?)
}

/// Receives a transaction's reader and transaction states, one call at a time, from the SDK's own
/// task (not the main actor: an app hops there for its UI).
public protocol SDKTransactionListener: AnyObject {
    func onReaderStateChanged(state: ReaderState)
    func onTransactionStateChanged(state: SDKTransactionState)
}
