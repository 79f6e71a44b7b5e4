import CardPayload

/// What the card screen did during a read, in order; the names of the first and the
/// processing step are the TapOnMobile SDK's `TransactionProcessEvent` and
/// `CardReaderTestProcessEvent` cases.
///
/// ```swift
/// let result = try await reader.read(…) { event in print(event) }
/// // displayingCardReader, paymentTimeout, tryAgain, displayingCardReader, cardRead, processing
/// ```
public enum ReaderEvent: Sendable, Equatable, Hashable {
    /// Apple's card screen is shown (again, after Try Again).
    case displayingCardReader
    /// 40 s passed without a tap: Apple's Payment Timeout alert.
    case paymentTimeout
    /// The customer tapped Try Again: the card screen comes back without a new transaction.
    case tryAgain
    /// A card was tapped and read.
    case cardRead(CardBrand)
    /// The reader asks for the PIN.
    case pinEntryRequested
    /// The customer entered a PIN.
    case pinEntered
    /// The card data is being sealed and handed over.
    case processing
    /// A card reader test finished; `true` when a card was read.
    case completed(Bool)
    /// A reader notice arrived.
    case notice(ReaderNotice)
}
