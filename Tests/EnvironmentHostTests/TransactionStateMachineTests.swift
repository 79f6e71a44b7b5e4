@testable import EnvironmentHost
import SandboxCore
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
    static let authorisation: Set<TransactionStatus> = [.cleared, .declined, .error, .pinRequested, .ongoing]

    /// For each event: the statuses it acts on, and those it may lead to.
    static let expected: [Event: (from: Set<TransactionStatus>, to: Set<TransactionStatus>)] = [
        .card: ([.new], [.cleared, .declined, .error, .pinRequested, .ongoing, .userCancelled, .timeout, .rejected, .terminalDeclined, .dccRequired]),
        .dccChoice: ([.dccRequired], authorisation),
        .pin: ([.pinRequested], [.cleared, .declined, .error, .ongoing]),
        .reversal: ([.cleared, .dccRequired], [.userCancelled, .cancelled]),
        .refund: ([.cleared], [.refunded]),
        .deadline: ([.new, .dccRequired, .pinRequested, .ongoing], [.timeout]),
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
        #expect(Machine.initial == .new)
        #expect(Event.allCases.filter { Machine.accepts($0, .cleared) } == [.reversal, .refund])
        for status in [TransactionStatus.refunded, .timeout, .userCancelled, .cancelled, .declined, .terminalDeclined, .rejected, .error] {
            #expect(Event.allCases.allSatisfy { !Machine.accepts($0, status) }, "\(status.rawValue) is final")
        }
    }

    @Test("in flight: NEW 120 s, DCC_REQUIRED 120 s, PIN_REQUESTED 60 s, ONGOING 30 s; every other status rests")
    func deadlines() {
        let waits: [TransactionStatus: Int64] = [.new: 120_000, .dccRequired: 120_000, .pinRequested: 60_000, .ongoing: 30_000]
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
            id: "t1", terminalID: "T1", merchantID: "M1", type: .auth, status: .new, amount: 1000, tipAmount: nil, currency: "EUR",
            reference: nil, at: 1_000)
        record.move(to: .dccRequired, by: .card, at: 5_000)
        #expect(record.status == .dccRequired)
        #expect(record.pendingUntil == 125_000)
        record.move(to: .pinRequested, by: .dccChoice, at: 6_000)
        #expect(record.pendingUntil == 66_000)
        record.move(to: .ongoing, by: .pin, at: 7_000)
        #expect(record.pendingUntil == 37_000)
        record.move(to: .timeout, by: .deadline, at: 40_000)
        #expect(record.status == .timeout)
        #expect(record.pendingUntil == nil)
    }

    @Test("reversal: a sale waiting for the DCC choice at once, a CLEARED sale for 30 minutes (the 30th included) while latest, nothing else")
    func reversibility() {
        let window: Int64 = 30 * 60_000
        #expect(Machine.reversibility(.auth, .dccRequired, age: 0) == .yes)
        #expect(Machine.reversibility(.auth, .dccRequired, age: 10 * window) == .yes)
        #expect(Machine.reversibility(.auth, .cleared, age: 0) == .whileLatest)
        #expect(Machine.reversibility(.auth, .cleared, age: window) == .whileLatest)
        #expect(Machine.reversibility(.auth, .cleared, age: window + 1) == .no)
        #expect(Machine.reversibility(.refund, .cleared, age: 0) == .no)
        #expect(Machine.reversibility(.refund, .dccRequired, age: 0) == .no)
        for status in TransactionStatus.allCases where status != .cleared && status != .dccRequired {
            #expect(Machine.reversibility(.auth, status, age: 0) == .no, "\(status.rawValue)")
        }
    }

    @Test("refund: only of a CLEARED sale")
    func refundability() {
        for type in [TransactionType.auth, .refund] {
            for status in TransactionStatus.allCases {
                #expect(Machine.isRefundable(type, status) == (type == .auth && status == .cleared), "\(type.rawValue) \(status.rawValue)")
            }
        }
    }

    @Test("a refused event says what the transaction is and what it should be")
    func refusalMessages() {
        #expect(Machine.refusal(.card, .cleared) == "The transaction is CLEARED, not NEW.")
        #expect(Machine.refusal(.dccChoice, .new) == "The transaction is NEW, not DCC_REQUIRED.")
        #expect(Machine.refusal(.pin, .timeout) == "The transaction is TIMEOUT, not PIN_REQUESTED.")
    }
}
