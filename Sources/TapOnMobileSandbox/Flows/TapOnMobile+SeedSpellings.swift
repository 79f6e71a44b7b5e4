import Foundation
import SandboxWire

/// The other spellings the seed uses for two calls in its own examples and usage blocks, so code
/// copied from it compiles as written. Each is the call it names, nothing more.
extension TapOnMobile {
    /// ``fetchTransactionDetails(transactionId:reference:terminalId:)`` as the seed's examples spell it.
    ///
    /// ```swift
    /// let detail = await TapOnMobile.shared.fetchTransactionsDetails(transactionId: id)
    /// ```
    public func fetchTransactionsDetails(
        transactionId: String? = nil, reference: String? = nil, terminalId: String? = nil
    ) async -> Result<TransactionDetail, TapOnMobileError> {
        await fetchTransactionDetails(transactionId: transactionId, reference: reference, terminalId: terminalId)
    }

    /// ``getDigitalReceipt(from:receiptType:email:)`` as the seed's usage block spells it.
    ///
    /// ```swift
    /// let receipt = await TapOnMobile.shared.getDigitalReceipt(transactionId: id, receiptType: .qrCode, email: nil)
    /// ```
    public func getDigitalReceipt(
        transactionId: String, receiptType: ReceiptType, email: String?
    ) async -> Result<ReceiptConfirmation, TapOnMobileError> {
        await getDigitalReceipt(from: transactionId, receiptType: receiptType, email: email)
    }

    /// ``doQRRefund(refundedTransactionId:refundAmount:reference:)`` as the seed's declaration spells it.
    ///
    /// ```swift
    /// for await result in TapOnMobile.shared.doQRefund(refundedTransactionId: id, refundAmount: 500, reference: nil) {
    ///     print(result)
    /// }
    /// ```
    @_disfavoredOverload
    public func doQRefund(
        refundedTransactionId: String, refundAmount: Int, reference: String?
    ) -> AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>> {
        doQRRefund(refundedTransactionId: refundedTransactionId, refundAmount: refundAmount, reference: reference)
    }
}

extension TapOnMobile {
    /// ``doBlikRefund(refundedTransactionId:refundAmount:reference:)`` as the seed's declaration spells it.
    ///
    /// ```swift
    /// for await result in TapOnMobile.shared.doBlikRefund(refundedTransactionId: id, refundAmount: 500, reference: nil) {
    ///     print(result)
    /// }
    /// ```
    @_disfavoredOverload
    @available(*, deprecated, renamed: "doBlikRefund(refundedTransactionId:refundAmount:reference:)")
    public func doBlikefund(
        refundedTransactionId: String, refundAmount: Int, reference: String?
    ) -> AsyncStream<Result<APMTransactionProcessEvent, TapOnMobileError>> {
        doBlikRefund(refundedTransactionId: refundedTransactionId, refundAmount: refundAmount, reference: reference)
    }
}
