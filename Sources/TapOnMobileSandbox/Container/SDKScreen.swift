import SandboxWire

/// A screen the SDK shows by itself on the app's `container` (seed "Container management"), in
/// ``TapOnMobile/doPayment(currency:requestedAmount:reference:tipAmount:container:paymentSolutionReceiptHandling:checkoutId:)``
/// and ``TapOnMobile/doRefund(currency:requestedAmount:transactionId:reference:container:paymentSolutionReceiptHandling:checkoutId:)``.
///
/// The sandbox draws nothing: it hands each screen to ``SandboxConfiguration/onSDKScreen``, and
/// the screen is closed when that handler returns, so a test (or `tapsim`) sees what a customer
/// would see and plays the customer's part. Without a container the SDK shows none of these
/// and the app draws its own. The card screen itself is Apple's, played by the simulated reader.
///
/// ```swift
/// configuration.onSDKScreen = { screen in
///     if case .result(let detail) = screen { print("result screen: \(detail.transactionStatus)") }
/// }
/// ```
public enum SDKScreen: Sendable, Equatable, Hashable {
    /// Progress while the host authorises the read card (shown at `.processing`).
    case transactionProgress
    /// The DCC offer of a `DCC_REQUIRED` sale (``TransactionDetail/dccAmount`` in
    /// ``TransactionDetail/dccCurrency``), shown when the customer's script makes the choice
    /// (``CardScript/dccOfferAccepted``, or a scripted customer's `dccOfferAccepted`); the SDK then
    /// finishes the sale with it. Without a scripted choice the sale completes at `DCC_REQUIRED`
    /// and the app finishes it (``TapOnMobile/doMakeTransactionFinishDCC(transactionId:dccOfferAccepted:)``).
    case dccOffer(TransactionDetail)
    /// The final result with the digital-receipt offer, shown after `.finishProcessing` when
    /// `paymentSolutionReceiptHandling` is `true`; the stream's `.completed` comes once it is closed.
    case result(TransactionDetail)
}
