import CardPayload
import Foundation

/// What the customer does when the reader asks for a PIN.
///
/// ```swift
/// .tap(mcPin, after: 5, pin: .correct)              // types 1234 after 3 s
/// .tap(mcPin, after: 5, pin: .wrong)                // types a PIN that is not the card's
/// .tap(mcPin, after: 5, pin: .notEntered)           // 60 s pass: the read times out
/// .tap(mcPin, after: 5, pin: .typed("9876", after: 10))
/// .tap(mcPin, after: 5, pin: .deferred)             // card sent without PIN → host asks (PIN_REQUESTED)
/// ```
public struct PinEntry: Sendable, Equatable, Hashable {
    /// Which digits are typed.
    public enum Digits: Sendable, Equatable, Hashable {
        /// The card's own PIN (``TestCard/defaultPin`` for a card without one).
        case correct
        /// A PIN that is not the card's.
        case wrong
        /// These exact digits.
        case typed(String)
        /// Nothing: after 60 s the reader gives up with ``ReaderOutcome/timeout``.
        case notEntered
        /// At the card read: no PIN yet, the card goes to the host without one and the PIN
        /// follows when the host asks (``Reader/enterPin(region:terminalId:readerKey:serverTimeOffset:onEvent:)``).
        /// At that PIN step it counts as ``correct``.
        case deferred
    }

    /// Which digits.
    public var digits: Digits
    /// Seconds the customer takes; 60 or more means the PIN is not entered in time.
    public var after: TimeInterval

    /// An entry.
    public init(_ digits: Digits, after: TimeInterval = 3) {
        self.digits = digits
        self.after = after
    }

    /// The card's PIN after 3 s.
    public static let correct = PinEntry(.correct)
    /// A wrong PIN after 3 s.
    public static let wrong = PinEntry(.wrong)
    /// No PIN within the 60 s limit.
    public static let notEntered = PinEntry(.notEntered, after: ReaderTimeouts.pin)
    /// The PIN is asked later by the host.
    public static let deferred = PinEntry(.deferred, after: 0)

    /// The card's PIN after `seconds`.
    public static func correct(after seconds: TimeInterval) -> PinEntry { PinEntry(.correct, after: seconds) }
    /// A wrong PIN after `seconds`.
    public static func wrong(after seconds: TimeInterval) -> PinEntry { PinEntry(.wrong, after: seconds) }
    /// `digits` after `seconds`.
    public static func typed(_ digits: String, after seconds: TimeInterval = 3) -> PinEntry {
        PinEntry(.typed(digits), after: seconds)
    }

    /// The entry a command line names (`tapsim pay --pin-entry …`), typed after 3 s.
    ///
    /// ```swift
    /// PinEntry(argument: "wrong")    // .wrong: the host declines with 55, Incorrect PIN
    /// PinEntry(argument: "none")     // .notEntered: the read times out after 60 s
    /// PinEntry(argument: "9876")     // .typed("9876")
    /// ```
    ///
    /// - Parameter argument: `correct`, `wrong`, `none`, or 4 to 12 digits.
    /// - Returns: `nil` for anything else.
    public init?(argument: String) {
        switch argument {
        case "correct": self = .correct
        case "wrong": self = .wrong
        case "none": self = .notEntered
        case let digits where (4...12).contains(digits.utf8.count) && digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }):
            self = .typed(digits)
        default: return nil
        }
    }

    /// The digits typed for `card`, or `nil` when none are typed in time.
    func typedDigits(for card: TestCard) -> String? {
        guard after < ReaderTimeouts.pin else { return nil }
        let cardPin = card.pin ?? TestCard.defaultPin
        switch digits {
        case .correct, .deferred: return cardPin
        case .wrong: return cardPin == "0000" ? "1111" : "0000"
        case .typed(let text): return text
        case .notEntered: return nil
        }
    }
}
