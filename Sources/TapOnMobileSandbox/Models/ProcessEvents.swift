import SandboxWire

/// The stages of a card payment or refund, as ``TapOnMobile/doPayment(currency:requestedAmount:reference:tipAmount:container:paymentSolutionReceiptHandling:checkoutId:)``
/// reports them (seed "Transaction Process Event").
///
/// A stream yields `.displayingCardReader`, `.processing`, `.finishProcessing`, then
/// `.completed` with the final detail, or a failure and nothing more. An online-PIN card adds
/// `.enteringPin` where the reader asks for the PIN: after `.displayingCardReader` for a PIN
/// typed with the tap, after `.processing` for one the host asks for (`PIN_REQUESTED`).
public enum TransactionProcessEvent: Sendable, Equatable, Hashable {
    /// The card screen is shown.
    case displayingCardReader
    /// The reader shows its PIN pad and the customer types the PIN (not in the seed, whose
    /// screens hide this step inside the SDK's own UI; a headless app needs to see it).
    case enteringPin
    /// The read card is with the host.
    case processing
    /// The host answered; the result follows.
    case finishProcessing
    /// The transaction ended: the detail carries its final status and response code. A
    /// `DCC_REQUIRED` detail waits for ``TapOnMobile/doMakeTransactionFinishDCC(transactionId:dccOfferAccepted:)``.
    case completed(TransactionDetail)
}

/// The stages of ``TapOnMobile/doCardReaderTest(currency:)`` (seed `CardReaderTestProcessEvent`).
public enum CardReaderTestProcessEvent: Sendable, Equatable, Hashable {
    /// The card screen is shown.
    case displayingCardReader
    /// A card was tapped.
    case processing
    /// The test ended: `true` when a card was read.
    case completed(Bool)
}

/// Receives the progress of ``TapOnMobile/prepareDevice()`` (seed `PrepareDeviceListener`).
///
/// Percentages go from 0 to 100, then ``onCompleted()``; or ``onError(error:)`` where it stops.
/// Calls come on ``SandboxConfiguration/callbackQueue``: the main queue on Apple platforms, as an
/// app's UI wants them; on Linux (tapsim, tests) the SDK's own task. Not `Sendable`, as in the
/// seed, so the seed's plain `class ExampleClass: PrepareDeviceListener` compiles in Swift 6.
///
/// ```swift
/// class Progress: PrepareDeviceListener {
///     func onPercentageUpdated(percentage: Int) { print("Prepare device progress: \(percentage)%") }
///     func onCompleted() { TapOnMobile.shared.removePrepareDeviceListener(self) }
///     func onError(error: TapOnMobileError) { TapOnMobile.shared.removePrepareDeviceListener(self) }
/// }
/// ```
public protocol PrepareDeviceListener: AnyObject {
    func onPercentageUpdated(percentage: Int)
    func onCompleted()
    func onError(error: TapOnMobileError)
}
