import SandboxWire

/// The stages of a QR payment or refund (seed "APM Transaction Process Event"), as
/// ``TapOnMobile/doQRPayment(requestedAmount:tipAmount:reference:container:paymentSolutionReceiptHandling:)``
/// and ``TapOnMobile/doQRRefund(refundedTransactionId:refundAmount:reference:)`` report them.
///
/// A payment yields `.displayBrands`, `.displayQR` (status `NEW`), `.processing` once the customer
/// opened the QR (status `ONGOING`; skipped when the customer decided before the next poll), then
/// `.completed` with the final transaction, or a failure and nothing more. A refund yields
/// `.processing` and `.completed`.
///
/// ```swift
/// for await result in TapOnMobile.shared.doQRPayment(requestedAmount: 1250, tipAmount: nil, reference: nil) {
///     if case .success(.displayQR(let order)) = result { print("scan", order.qrCode ?? "") }
///     if case .success(.completed(let order)) = result { print(order.transactionStatus) }
/// }
/// ```
public enum APMTransactionProcessEvent: Sendable, Equatable, Hashable {
    /// The terminal's active wallet brands (its `apmConfig`), to offer the customer.
    case displayBrands([APMPaymentData.APMBrand])
    /// The order is made: show ``APMTransaction/qrCode`` (or its ``APMTransaction/qrCodeSVG``).
    case displayQR(APMTransaction)
    /// The customer opened the QR (a payment), or the refund is with the wallet provider.
    case processing(APMTransaction)
    /// The host decided: `CLEARED`, `DECLINED` (with ``APMTransaction/declineReason``), `TIMEOUT`,
    /// `USER_CANCELLED` or `ERROR`.
    case completed(APMTransaction)
}
