import Foundation
import SandboxWire

extension PaymentRules {
    // MARK: - Refund

    /// Checks a refund of `original`, in this order: the terminal permits refunds, the
    /// original is this terminal's, a `CLEARED` sale, not refunded yet and no longer
    /// cancellable; then currency, amount and reference.
    ///
    /// `original.cancellable` is taken as given: the host keeps it current (see
    /// ``isCancellable(_:isLatestClearedSale:at:terminal:)``).
    ///
    /// - Parameters:
    ///   - requestedAmount: the refund in minor units: 1 … the sale's `transactionAmount`.
    ///   - currency: the ISO 4217 code the request names: the terminal's and the sale's.
    ///   - reference: the merchant's reference for the refund, or nil.
    ///   - original: the sale the request names.
    ///   - terminal: the terminal as its device sees it.
    /// - Returns: the amounts (no tip; the base amount is the refund).
    /// - Throws: ``PaymentRuleError``: `refund_not_allowed`, `transaction_not_found`,
    ///   `already_refunded`, `transaction_not_refundable`, `transaction_still_cancellable`,
    ///   `invalid_currency`, `currency_mismatch`, `invalid_amount`, `refund_over_amount`,
    ///   `invalid_reference`.
    public static func validateRefund(
        requestedAmount: Int, currency: String, reference: String?, original: TransactionDetail, terminal: TerminalInfo
    ) throws(PaymentRuleError) -> Amounts {
        guard terminal.isRefundAvailable else {
            throw PaymentRuleError(.refundNotAllowed, field: nil, message: "This terminal does not permit refunds.")
        }
        try validateOwnership(original, terminal: terminal)
        if original.transactionType == .AUTH, original.transactionStatus == .REFUNDED {
            throw PaymentRuleError(
                .alreadyRefunded, field: "transactionId", message: "Transaction \(original.transactionId) was refunded already.")
        }
        guard original.transactionType == .AUTH, original.transactionStatus == .CLEARED else {
            throw PaymentRuleError(
                .transactionNotRefundable, field: "transactionId",
                message: "Only a CLEARED sale can be refunded; \(original.transactionId) is a "
                    + "\(original.transactionStatus.rawValue) \(original.transactionType.rawValue).")
        }
        guard !original.cancellable else {
            throw PaymentRuleError(
                .transactionStillCancellable, field: "transactionId",
                message: "Transaction \(original.transactionId) can still be reversed; reverse it instead of refunding it.")
        }
        let refundCurrency = try validateCurrency(currency, terminal: terminal)
        if let saleCurrency = original.currency?.code, saleCurrency != refundCurrency.code {
            throw PaymentRuleError(
                .currencyMismatch, field: "currency", message: "The sale was in \(saleCurrency), not \(refundCurrency.code).")
        }
        guard requestedAmount >= 1 else {
            throw PaymentRuleError(
                .invalidAmount, field: "requestedAmount", message: "requestedAmount must be at least 1 (minor units).")
        }
        guard requestedAmount <= original.transactionAmount else {
            throw PaymentRuleError(
                .refundOverAmount, field: "requestedAmount",
                message: "requestedAmount \(requestedAmount) exceeds the sale's amount \(original.transactionAmount).")
        }
        try validateReference(reference, terminal: terminal)
        return Amounts(requestedAmount: requestedAmount, tipAmount: nil, baseAmount: requestedAmount, currency: refundCurrency)
    }

    // MARK: - Reversal

    /// Whether a sale can still be reversed: the terminal permits reversals, and the sale waits
    /// for the DCC choice (cancelling it then is a reversal too) or is its latest `CLEARED` one, at
    /// most 30 minutes old at `now`. This is `TransactionDetail.cancellable`.
    ///
    /// - Parameter isLatestClearedSale: no later sale of the terminal has cleared. A later decline,
    ///   cancelled read or sale still in flight does not end the window; a later sale that cleared
    ///   does, even once it is reversed or refunded.
    public static func isCancellable(
        _ transaction: TransactionDetail, isLatestClearedSale: Bool, at now: Date, terminal: TerminalInfo
    ) -> Bool {
        guard terminal.isReversalAvailable, transaction.terminalId == terminal.terminalId, transaction.transactionType == .AUTH
        else { return false }
        if transaction.transactionStatus == .DCC_REQUIRED { return true }
        return transaction.transactionStatus == .CLEARED && isLatestClearedSale
            && now.timeIntervalSince(transaction.transactionDate) <= reversalWindow
    }

    /// Checks the reversal of a cleared sale, or of one waiting for the DCC choice (other
    /// in-flight transactions are cancelled, not reversed, and are the host's state machine's business).
    ///
    /// - Throws: `reversal_not_allowed` where the terminal does not permit reversals,
    ///   `transaction_not_found` for another terminal's transaction, `transaction_not_cancellable`
    ///   when ``isCancellable(_:isLatestClearedSale:at:terminal:)`` is false.
    public static func validateReversal(
        of transaction: TransactionDetail, isLatestClearedSale: Bool, at now: Date, terminal: TerminalInfo
    ) throws(PaymentRuleError) {
        guard terminal.isReversalAvailable else {
            throw PaymentRuleError(.reversalNotAllowed, field: nil, message: "This terminal does not permit reversals.")
        }
        try validateOwnership(transaction, terminal: terminal)
        guard isCancellable(transaction, isLatestClearedSale: isLatestClearedSale, at: now, terminal: terminal) else {
            throw PaymentRuleError(
                .transactionNotCancellable, field: "transactionId",
                message: "Only the terminal's latest CLEARED sale can be reversed, within 30 minutes.")
        }
    }

    /// Another terminal's transaction is reported as unknown, never as someone else's.
    ///
    /// - Throws: `transaction_not_found`.
    public static func validateOwnership(_ transaction: TransactionDetail, terminal: TerminalInfo) throws(PaymentRuleError) {
        guard transaction.terminalId == terminal.terminalId else {
            throw PaymentRuleError(
                .transactionNotFound, field: "transactionId", message: "No such transaction on this terminal.")
        }
    }
}
