@testable import EnvironmentHost
@testable import HostRules
import HostStorage
import SandboxCore
import SandboxWire
import Testing

/// The transaction state machine alone, without a database: every transition it allows and every
/// one it refuses, the deadlines of the statuses in flight, and what can be reversed or refunded.
///
/// The expected tables are written out here, apart from the code's own, so that changing a rule
/// of the machine fails a test.
@Suite struct TransactionStateMachineTests {
    typealias Machine = TransactionStateMachine
    typealias Event = TransactionStateMachine.Event

    /// What the issuer's answer can make of a transaction.
    static let authorisation: Set<TransactionStatus> = [.CLEARED, .DECLINED, .ERROR, .PIN_REQUESTED, .ONGOING]

    /// For each event: the statuses it acts on, and those it may lead to.
    static let expected: [Event: (from: Set<TransactionStatus>, to: Set<TransactionStatus>)] = [
        .card: ([.NEW], [.CLEARED, .DECLINED, .ERROR, .PIN_REQUESTED, .ONGOING, .USER_CANCELLED, .TIMEOUT, .REJECTED, .TERMINAL_DECLINED, .DCC_REQUIRED]),
        .dccChoice: ([.DCC_REQUIRED], authorisation),
        .pin: ([.PIN_REQUESTED], [.CLEARED, .DECLINED, .ERROR, .ONGOING]),
        .reversal: ([.CLEARED, .DCC_REQUIRED], [.USER_CANCELLED, .CANCELLED]),
        .refund: ([.CLEARED], [.REFUNDED]),
        .deadline: ([.NEW, .DCC_REQUIRED, .PIN_REQUESTED, .ONGOING], [.TIMEOUT]),
        // QR wallet orders: NEW until scanned, ONGOING after; a QR refund waits ONGOING.
        .scanned: ([.NEW], [.ONGOING]),
        // BLIK: ONGOING once the wallet took the code.
        .codeAccepted: ([.NEW], [.ONGOING]),
        .paid: ([.NEW, .ONGOING], [.CLEARED]),
        .declined: ([.NEW, .ONGOING], [.DECLINED]),
        .expired: ([.NEW, .ONGOING], [.TIMEOUT]),
        .cancelled: ([.NEW, .ONGOING], [.USER_CANCELLED]),
        .refundSucceeded: ([.ONGOING], [.CLEARED]),
        .refundFailed: ([.ONGOING], [.DECLINED]),
    ]

    @Test("every event acts only on the statuses that wait for it", arguments: Event.allCases)
    func eventsActOnTheirStatuses(event: Event) throws {
        let from = try #require(Self.expected[event]).from
        for status in TransactionStatus.allCases {
            #expect(Machine.accepts(event, status) == from.contains(status), "\(event) in \(status.rawValue)")
        }
    }

    @Test("every (status, event, status) triple: allowed exactly when the table says so", arguments: Event.allCases)
    func everyTransition(event: Event) throws {
        let (from, to) = try #require(Self.expected[event])
        for source in TransactionStatus.allCases {
            for target in TransactionStatus.allCases {
                #expect(
                    Machine.allows(event, from: source, to: target) == (from.contains(source) && to.contains(target)),
                    "\(event): \(source.rawValue) → \(target.rawValue)")
            }
        }
    }

    @Test("a transaction starts NEW; nothing leaves CLEARED but a reversal or a refund, nothing leaves a final status")
    func startsNewAndFinalStatusesRest() {
        #expect(Machine.initial == .NEW)
        #expect(Event.allCases.filter { Machine.accepts($0, .CLEARED) } == [.reversal, .refund])
        // (A QR refund that CLEARED is a refund: only its sale moves on, by the refund event.)
        for status in [TransactionStatus.REFUNDED, .TIMEOUT, .USER_CANCELLED, .CANCELLED, .DECLINED, .TERMINAL_DECLINED, .REJECTED, .ERROR] {
            #expect(Event.allCases.allSatisfy { !Machine.accepts($0, status) }, "\(status.rawValue) is final")
        }
    }

    @Test("in flight: NEW 120 s, DCC_REQUIRED 120 s, PIN_REQUESTED 60 s, ONGOING 30 s; every other status rests")
    func deadlines() {
        let waits: [TransactionStatus: Int64] = [.NEW: 120_000, .DCC_REQUIRED: 120_000, .PIN_REQUESTED: 60_000, .ONGOING: 30_000]
        for status in TransactionStatus.allCases {
            #expect(Machine.wait(in: status) == waits[status], "\(status.rawValue)")
            #expect(Machine.isInFlight(status) == (waits[status] != nil), "\(status.rawValue)")
            // The host's busy rule and the wire's isInFlight agree.
            #expect(Machine.isInFlight(status) == status.isInFlight, "\(status.rawValue)")
        }
    }

    @Test("moving a record sets the deadline of its new status, and clears it at rest")
    func moveSetsTheDeadline() {
        var record = TransactionRecord(
            id: "t1", terminalID: "T1", merchantID: "M1", type: .AUTH, status: .NEW, amount: 1000, tipAmount: nil, currency: "EUR",
            reference: nil, at: 1_000)
        record.move(to: .DCC_REQUIRED, by: .card, at: 5_000)
        #expect(record.status == .DCC_REQUIRED)
        #expect(record.pendingUntil == 125_000)
        record.move(to: .PIN_REQUESTED, by: .dccChoice, at: 6_000)
        #expect(record.pendingUntil == 66_000)
        record.move(to: .ONGOING, by: .pin, at: 7_000)
        #expect(record.pendingUntil == 37_000)
        record.move(to: .TIMEOUT, by: .deadline, at: 40_000)
        #expect(record.status == .TIMEOUT)
        #expect(record.pendingUntil == nil)
    }

    @Test("reversal: a sale waiting for the DCC choice at once, a CLEARED sale for 30 minutes (the 30th included) while latest, nothing else")
    func reversibility() {
        let window: Int64 = 30 * 60_000
        #expect(Machine.reversibility(.AUTH, .DCC_REQUIRED, age: 0) == .yes)
        #expect(Machine.reversibility(.AUTH, .DCC_REQUIRED, age: 10 * window) == .yes)
        #expect(Machine.reversibility(.AUTH, .CLEARED, age: 0) == .whileLatest)
        #expect(Machine.reversibility(.AUTH, .CLEARED, age: window) == .whileLatest)
        #expect(Machine.reversibility(.AUTH, .CLEARED, age: window + 1) == .no)
        #expect(Machine.reversibility(.REFUND, .CLEARED, age: 0) == .no)
        #expect(Machine.reversibility(.REFUND, .DCC_REQUIRED, age: 0) == .no)
        for status in TransactionStatus.allCases where status != .CLEARED && status != .DCC_REQUIRED {
            #expect(Machine.reversibility(.AUTH, status, age: 0) == .no, "\(status.rawValue)")
        }
    }

    @Test("refund: only of a CLEARED sale")
    func refundability() {
        for type in [TransactionType.AUTH, .REFUND] {
            for status in TransactionStatus.allCases {
                #expect(Machine.isRefundable(type, status) == (type == .AUTH && status == .CLEARED), "\(type.rawValue) \(status.rawValue)")
            }
        }
    }

    @Test("card events never act on a QR payment, wallet events never on a card sale; the deadline and the refund act on both")
    func eventsBelongToAPaymentMethod() {
        let card: Set<Event> = [.card, .dccChoice, .pin, .reversal, .refund, .deadline]
        let wallet: Set<Event> = [
            .scanned, .codeAccepted, .paid, .declined, .expired, .cancelled, .refundSucceeded, .refundFailed, .refund, .deadline,
        ]
        for event in Event.allCases {
            #expect(Machine.applies(event, to: .CARD) == card.contains(event), "\(event) on a card sale")
            #expect(Machine.applies(event, to: .QRCODE) == wallet.contains(event), "\(event) on a QR payment")
            #expect(Machine.applies(event, to: .BLIK) == wallet.contains(event), "\(event) on a BLIK payment")
        }
    }

    @Test("a QR order in flight keeps its order's deadline (apmTimeout), not a card status's wait, and rests once final")
    func qrMoveKeepsTheOrderDeadline() {
        var record = TransactionRecord(
            id: "q1", terminalID: "T1", merchantID: "M1", type: .AUTH, status: .NEW, amount: 1000, tipAmount: nil, currency: "EUR",
            reference: nil, at: 1_000)
        record.paymentMethod = .QRCODE
        record.apmExpiresAt = 301_000
        record.pendingUntil = 301_000
        record.moveAPM(to: .ONGOING, by: .scanned, at: 5_000)
        #expect(record.status == .ONGOING)
        #expect(record.pendingUntil == 301_000, "a card's ONGOING would wait 30 s only")
        record.moveAPM(to: .CLEARED, by: .paid, at: 6_000)
        #expect(record.pendingUntil == nil)
    }

    @Test("a refused event says what the transaction is and what it should be")
    func refusalMessages() {
        #expect(Machine.refusal(.card, .CLEARED) == "The transaction is CLEARED, not NEW.")
        #expect(Machine.refusal(.dccChoice, .NEW) == "The transaction is NEW, not DCC_REQUIRED.")
        #expect(Machine.refusal(.pin, .TIMEOUT) == "The transaction is TIMEOUT, not PIN_REQUESTED.")
    }
}
