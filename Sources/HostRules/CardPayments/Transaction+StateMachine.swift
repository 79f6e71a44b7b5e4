import HostStorage
import SandboxCore
import SandboxWire

/// The transaction state machine: which event takes a transaction from which status to which,
/// what is in flight and how long it may wait there, and what can still be reversed or refunded.
///
/// Pure values, no database and no clock: ``CardPayments`` asks it before a change and moves a
/// record through it (``TransactionRecord/move(to:by:at:)``), then writes the record.
///
/// ```swift
/// TransactionStateMachine.accepts(.pin, .PIN_REQUESTED)              // true
/// TransactionStateMachine.allows(.card, from: .NEW, to: .REFUNDED)   // false
/// TransactionStateMachine.wait(in: .PIN_REQUESTED)                    // 60_000 ms
/// ```
///
/// Every transaction starts ``initial`` (NEW); a card sent with the request that creates it is
/// the ``Event/card`` event at once.
package enum TransactionStateMachine {
    /// What happens to a transaction.
    package enum Event: String, CaseIterable, Sendable {
        /// The card read, or the reader's word that none came (cancelled, timeout, background).
        case card
        /// The customer accepts or refuses the DCC offer.
        case dccChoice
        /// The PIN typed on the reader.
        case pin
        /// The sale is cancelled, by the user or by the system.
        case reversal
        /// A refund of the sale cleared: the sale is paid back.
        case refund
        /// The in-flight deadline passed, or the device left (an APM order: the host's `apmTimeout`).
        case deadline

        // A QR wallet payment (docs/qr-payments.md): what the wallet notifies, and the app's cancel.

        /// The customer opened the QR's pay page.
        case scanned
        /// The wallet took a BLIK code: the customer has the confirmation request (docs/blik.md).
        case codeAccepted
        /// The customer paid, and the host took it.
        case paid
        /// The wallet declined (the customer, the provider, funds, limits).
        case declined
        /// The wallet let the order expire.
        case expired
        /// The app cancelled the order (`cancelQRPayment`).
        case cancelled
        /// The wallet paid a QR refund out.
        case refundSucceeded
        /// The wallet refused a QR refund.
        case refundFailed
    }

    /// The events of a card transaction, and those of a QR wallet one: a card event never acts on
    /// a QR order (nor a wallet's on a card sale), whatever its status.
    package static let cardEvents: Set<Event> = [.card, .dccChoice, .pin, .reversal, .refund, .deadline]
    package static let apmEvents: Set<Event> = [.scanned, .codeAccepted, .paid, .declined, .expired, .cancelled, .refundSucceeded, .refundFailed, .refund, .deadline]

    /// Whether `event` belongs to transactions paid by `method`.
    package static func applies(_ event: Event, to method: PaymentMethod) -> Bool {
        method == .CARD ? cardEvents.contains(event) : apmEvents.contains(event)
    }

    /// Where every transaction starts: waiting for its card.
    package static let initial: TransactionStatus = .NEW

    /// What the issuer's answer can make of a transaction: approved, declined (or failed), asking
    /// for the PIN, or not answering yet.
    private static let authorisation: Set<TransactionStatus> = [.CLEARED, .DECLINED, .ERROR, .PIN_REQUESTED, .ONGOING]

    /// For each event, the statuses it acts on and the statuses it may leave behind.
    package static let transitions: [Event: (from: Set<TransactionStatus>, to: Set<TransactionStatus>)] = [
        // The reader's outcome instead of a card, a read too old, a card the kernel refuses, a wrong
        // offline PIN, the DCC offer, the online PIN, or the issuer's answer.
        .card: ([.NEW], authorisation.union([.USER_CANCELLED, .TIMEOUT, .REJECTED, .TERMINAL_DECLINED, .DCC_REQUIRED])),
        // An online-PIN card asks for its PIN after the currency choice.
        .dccChoice: ([.DCC_REQUIRED], authorisation),
        // A wrong PIN declines; a right one goes to the issuer, which does not ask for it again.
        .pin: ([.PIN_REQUESTED], authorisation.subtracting([.PIN_REQUESTED])),
        // Cancelling during the DCC choice is a reversal too.
        .reversal: ([.CLEARED, .DCC_REQUIRED], [.USER_CANCELLED, .CANCELLED]),
        .refund: ([.CLEARED], [.REFUNDED]),
        .deadline: ([.NEW, .DCC_REQUIRED, .PIN_REQUESTED, .ONGOING], [.TIMEOUT]),
        // A QR order waits NEW for the scan, ONGOING once scanned; either way it can be paid,
        // declined, expired or cancelled. A QR refund waits ONGOING for the wallet's answer.
        .scanned: ([.NEW], [.ONGOING]),
        // A BLIK payment is ONGOING once the wallet took its code, while the customer decides.
        .codeAccepted: ([.NEW], [.ONGOING]),
        .paid: ([.NEW, .ONGOING], [.CLEARED]),
        .declined: ([.NEW, .ONGOING], [.DECLINED]),
        .expired: ([.NEW, .ONGOING], [.TIMEOUT]),
        .cancelled: ([.NEW, .ONGOING], [.USER_CANCELLED]),
        .refundSucceeded: ([.ONGOING], [.CLEARED]),
        .refundFailed: ([.ONGOING], [.DECLINED]),
    ]

    /// Whether `event` may happen to a transaction in `status`.
    package static func accepts(_ event: Event, _ status: TransactionStatus) -> Bool {
        transitions[event]?.from.contains(status) == true
    }

    /// Whether `event` may take a transaction from `status` to `target`.
    package static func allows(_ event: Event, from status: TransactionStatus, to target: TransactionStatus) -> Bool {
        accepts(event, status) && transitions[event]?.to.contains(target) == true
    }

    /// The `wrong_state` message for `event` refused in `status`: what it is, what it should be.
    package static func refusal(_ event: Event, _ status: TransactionStatus) -> String {
        let expected = (transitions[event]?.from ?? []).map(\.rawValue).sorted().joined(separator: " or ")
        return "The transaction is \(status.rawValue), not \(expected)."
    }

    // MARK: - In flight

    /// How long a transaction may stay in `status` (milliseconds), nil for a status at rest: the
    /// card 120 s, the DCC choice 120 s, the PIN 60 s, the issuer 30 s. Then it times out.
    package static func wait(in status: TransactionStatus) -> Int64? {
        switch status {
        case .NEW: 120_000
        case .DCC_REQUIRED: 120_000
        case .PIN_REQUESTED: 60_000
        case .ONGOING: 30_000
        default: nil
        }
    }

    /// Whether a transaction in `status` still waits for something, which keeps its terminal busy.
    package static func isInFlight(_ status: TransactionStatus) -> Bool { wait(in: status) != nil }

    // MARK: - Reversal and refund

    /// How long a cleared sale can be reversed: 30 minutes, the 30th included.
    package static let reversalWindow: Int64 = 30 * 60_000

    /// Whether a transaction can be reversed, as far as its own fields tell.
    package enum Reversibility: Equatable, Sendable {
        case no
        case yes
        /// Only while no later sale of its terminal was approved (the database knows).
        case whileLatest
    }

    /// A sale waiting for the DCC choice can be reversed; a cleared sale within the reversal window
    /// while it is its terminal's latest approved sale; nothing else.
    ///
    /// - Parameter age: milliseconds since the transaction was created.
    package static func reversibility(_ type: TransactionType, _ status: TransactionStatus, age: Int64) -> Reversibility {
        guard type == .AUTH else { return .no }
        if status == .DCC_REQUIRED { return .yes }
        return status == .CLEARED && age <= reversalWindow ? .whileLatest : .no
    }

    /// Whether a transaction can be refunded (once it can no longer be reversed): a cleared sale.
    package static func isRefundable(_ type: TransactionType, _ status: TransactionStatus) -> Bool {
        type == .AUTH && accepts(.refund, status)
    }
}

extension TransactionRecord {
    /// Moves the transaction to `status` through `event`, with the deadline that status has (none at rest).
    package mutating func move(to status: TransactionStatus, by event: TransactionStateMachine.Event, at now: Int64) {
        assert(
            TransactionStateMachine.allows(event, from: self.status, to: status),
            "\(event) may not take a transaction from \(self.status.rawValue) to \(status.rawValue)")
        self.status = status
        pendingUntil = TransactionStateMachine.wait(in: status).map { now + $0 }
    }

    /// Moves a QR transaction to `status` through `event`: in flight it keeps the deadline of its
    /// order (``apmExpiresAt``, from the terminal's `apmTimeout`), not a card status's wait.
    package mutating func moveAPM(to status: TransactionStatus, by event: TransactionStateMachine.Event, at now: Int64) {
        assert(
            TransactionStateMachine.allows(event, from: self.status, to: status) && TransactionStateMachine.applies(event, to: paymentMethod),
            "\(event) may not take a \(paymentMethod.rawValue) transaction from \(self.status.rawValue) to \(status.rawValue)")
        self.status = status
        pendingUntil = TransactionStateMachine.isInFlight(status) ? apmExpiresAt : nil
    }
}
