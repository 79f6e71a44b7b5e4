import CardPayload
import Foundation

/// What the customer does in front of the card screen during one read.
///
/// A script is a list of attempts, one per time Apple's card screen is shown. An attempt
/// that ends in the 40 s Payment Timeout is followed by the next one as if the customer tapped
/// Try Again; when none is left the read ends with ``ReaderOutcome/timeout``.
///
/// ```swift
/// await reader.present(.tap(visa, after: 5))                                  // a payload
/// await reader.present(.noTap())                                              // timeout at 40 s
/// await reader.present(.noTap(thenTryAgain: .tap(visa, after: 3)))            // payload at 43 s
/// await reader.present(.cancel(after: 10))                                    // cancelled
/// await reader.present(.background(after: 8))                                 // background
/// await reader.present(.tap(mcPin, after: 5, pin: .wrong))                    // payload with a wrong PIN
/// ```
public struct CardScript: Sendable, Equatable, Hashable {
    /// One showing of the card screen.
    public enum Attempt: Sendable, Equatable, Hashable {
        /// The customer taps `card` after `after` seconds (40 or more: too late, Payment
        /// Timeout) and, for an online-PIN card, enters `pin`.
        case tap(TestCard, after: TimeInterval, pin: PinEntry)
        /// Nobody taps: Payment Timeout after 40 s.
        case noTap
        /// The customer closes the card screen after `after` seconds.
        case cancel(after: TimeInterval)
        /// The app is sent to the background after `after` seconds, and comes back; the
        /// reader must be prepared again.
        case background(after: TimeInterval)
    }

    /// The attempts, in order.
    public var attempts: [Attempt]
    /// What the customer types if the host asks for a PIN after this read (`PIN_REQUESTED`).
    public var pinOnRequest: PinEntry
    /// What the customer chooses if a DCC offer is shown after this read (the SDK's own DCC
    /// screen, on a payment given a `container`); `nil` leaves the choice to the app.
    public var dccOfferAccepted: Bool?

    /// A script.
    ///
    /// - Parameters:
    ///   - attempts: One per showing of the card screen; empty behaves like ``noTap(thenTryAgain:)``.
    ///   - pinOnRequest: For a later PIN step; the card's PIN by default.
    ///   - dccOfferAccepted: The choice on a DCC offer after the read; `nil`: the app's.
    public init(attempts: [Attempt], pinOnRequest: PinEntry = .correct, dccOfferAccepted: Bool? = nil) {
        self.attempts = attempts
        self.pinOnRequest = pinOnRequest
        self.dccOfferAccepted = dccOfferAccepted
    }

    /// The customer taps `card` after `seconds`.
    ///
    /// - Parameters:
    ///   - card: The card.
    ///   - seconds: Delay after the screen appears; 2 s by default.
    ///   - pin: What is typed if the card is online-PIN; the card's PIN by default.
    ///   - pinOnRequest: What is typed if the host asks for a PIN later.
    ///   - dccOfferAccepted: The choice on a DCC offer the SDK shows after the read; `nil`: the app's.
    public static func tap(
        _ card: TestCard, after seconds: TimeInterval = 2, pin: PinEntry = .correct, pinOnRequest: PinEntry = .correct,
        dccOfferAccepted: Bool? = nil
    ) -> CardScript {
        CardScript(attempts: [.tap(card, after: seconds, pin: pin)], pinOnRequest: pinOnRequest, dccOfferAccepted: dccOfferAccepted)
    }

    /// Nobody taps for 40 s; then the customer gives up, or taps Try Again and `next` follows.
    public static func noTap(thenTryAgain next: CardScript? = nil) -> CardScript {
        CardScript(attempts: [.noTap] + (next?.attempts ?? []), pinOnRequest: next?.pinOnRequest ?? .correct)
    }

    /// The customer cancels the card screen after `seconds`.
    public static func cancel(after seconds: TimeInterval) -> CardScript {
        CardScript(attempts: [.cancel(after: seconds)])
    }

    /// The app goes to the background after `seconds`.
    public static func background(after seconds: TimeInterval) -> CardScript {
        CardScript(attempts: [.background(after: seconds)])
    }
}
