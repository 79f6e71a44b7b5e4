/// What the customer does at a terminal's next card screen, queued on the host by a test
/// (`POST /_sandbox/customer/{terminalId}`) and played by the simulated reader of the device
/// logged in on that terminal: the card tapped, the PIN typed, the DCC choice. A UI test runs in
/// another process than the app, so it cannot hand the reader a script; it queues one here.
///
/// ```json
/// {"action": "tap", "card": "visa-us-dcc", "dccOfferAccepted": true}
/// {"action": "tap", "card": "mc-pin", "pin": "wrong"}
/// {"action": "noTap"}
/// {"action": "cancel", "afterSeconds": 3}
/// ```
///
/// One shape for both sides: the host checks and keeps it, the SDKs read it back, and an app's
/// tests queue one with it (`TestSandbox.queueCustomer(_:terminalId:region:)`).
public struct CustomerTurn: Sendable, Codable, Equatable {
    public enum Action: String, Sendable, Codable, CaseIterable {
        /// The customer taps ``card`` after ``afterSeconds`` (40 or more: too late, Payment Timeout).
        case tap
        /// Nobody taps: Payment Timeout after 40 s.
        case noTap
        /// The customer closes the card screen after ``afterSeconds``.
        case cancel
    }

    public var action: Action
    /// A card of `sandbox-data/cards.json` by its short name (`visa`, `mc-pin`, `visa-us-dcc`); a tap needs one.
    public var card: String?
    /// Seconds after the card screen shows; a tap's default is 2, a cancel's 3.
    public var afterSeconds: Double?
    /// What is typed if the card or the host asks for a PIN: `correct` (the default), `wrong`,
    /// `none` (nothing within the 60 s limit), `deferred` (the card goes without it and the PIN
    /// follows when the host asks), or 4 to 12 digits.
    public var pin: String?
    /// The customer's choice if the SDK shows a DCC offer after the read (a payment with a
    /// `container`); `nil` leaves a `DCC_REQUIRED` sale to the app, as without a script.
    public var dccOfferAccepted: Bool?

    public init(action: Action, card: String? = nil, afterSeconds: Double? = nil, pin: String? = nil, dccOfferAccepted: Bool? = nil) {
        self.action = action
        self.card = card
        self.afterSeconds = afterSeconds
        self.pin = pin
        self.dccOfferAccepted = dccOfferAccepted
    }

    /// The customer taps `card` (a `cards.json` name) after `afterSeconds`, types `pin`, and
    /// takes or refuses a DCC offer.
    public static func tap(_ card: String, afterSeconds: Double? = nil, pin: String? = nil, dccOfferAccepted: Bool? = nil) -> CustomerTurn {
        CustomerTurn(action: .tap, card: card, afterSeconds: afterSeconds, pin: pin, dccOfferAccepted: dccOfferAccepted)
    }

    /// Nobody taps: the card screen times out after 40 s.
    public static let noTap = CustomerTurn(action: .noTap)

    /// The customer closes the card screen after `afterSeconds`.
    public static func cancel(afterSeconds: Double = 3) -> CustomerTurn {
        CustomerTurn(action: .cancel, afterSeconds: afterSeconds)
    }

    /// The seconds the customer takes, with the action's default.
    public var seconds: Double { afterSeconds ?? (action == .cancel ? 3 : 2) }

    /// Why the host cannot queue this turn, naming the field; nil when it can. Whether ``card``
    /// names a card of the catalogue is the host's check.
    public var problem: (message: String, field: String)? {
        if let afterSeconds, !(afterSeconds >= 0 && afterSeconds <= 600) {
            return ("afterSeconds must be from 0 to 600.", "afterSeconds")
        }
        switch action {
        case .tap:
            guard let card else { return ("A tap names its card (a name of sandbox-data/cards.json).", "card") }
            if !(1...64).contains(card.utf8.count) || !card.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }) {
                return ("card must be a card's short name: 1 to 64 lower-case letters, digits or '-'.", "card")
            }
            if let pin, !Self.pins.contains(pin), !Self.isDigits(pin) {
                return ("pin must be correct, wrong, none, deferred, or 4 to 12 digits.", "pin")
            }
        case .noTap, .cancel:
            if card != nil { return ("Only a tap names a card.", "card") }
            if pin != nil { return ("Only a tap types a PIN.", "pin") }
            if dccOfferAccepted != nil { return ("Only a tap meets a DCC offer.", "dccOfferAccepted") }
            if action == .noTap, afterSeconds != nil { return ("Nobody taps: the card screen times out after 40 s by itself.", "afterSeconds") }
        }
        return nil
    }

    /// The members of a turn's JSON; any other is refused.
    public static let fields: Set<String> = ["action", "card", "afterSeconds", "pin", "dccOfferAccepted"]

    /// The words `pin` takes besides digits.
    public static let pins: Set<String> = ["correct", "wrong", "none", "deferred"]

    private static func isDigits(_ text: String) -> Bool {
        (4...12).contains(text.utf8.count) && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }
}

/// The answer of `POST /_sandbox/customer/{terminalId}/next`: the turn taken from the queue, or
/// none; a tap comes with its card's entry of `sandbox-data/cards.json` (`{"cards": [ … ]}`), so
/// a device that has no catalogue of its own (an app on an iPhone) reads the card the host names.
public struct CustomerTurnTaken: Sendable, Decodable, Equatable {
    public var turn: CustomerTurn?
    public init(turn: CustomerTurn?) { self.turn = turn }
}
