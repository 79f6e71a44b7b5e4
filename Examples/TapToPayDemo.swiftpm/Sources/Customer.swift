import Synchronization
import TapOnMobileSandbox

/// What the customer does when the card screen shows. On a real iPhone Apple's card screen reads a
/// real card; in the sandbox the simulated reader plays this script instead.
enum Customer: String, CaseIterable, Identifiable, Sendable {
    case taps
    case tapsPinCard
    case tapsDeclinedCard
    case walksAway
    case cancels

    var id: Self { self }

    var title: String {
        switch self {
        case .taps: "Taps a Visa debit card"
        case .tapsPinCard: "Taps a Mastercard, types PIN 1234"
        case .tapsDeclinedCard: "Taps a card the issuer declines"
        case .walksAway: "Never taps (40 s timeout)"
        case .cancels: "Closes the card screen"
        }
    }

    /// The simulated reader's script for one card screen.
    var script: CardScript {
        switch self {
        case .taps: .tap(Self.visa)
        case .tapsPinCard: .tap(Self.mastercardPin, pin: .correct)
        case .tapsDeclinedCard: .tap(Self.visaDecline)
        case .walksAway: .noTap()
        case .cancels: .cancel(after: 3)
        }
    }

    // Three cards of the sandbox's test-card catalogue (sandbox-data/cards.json: `visa`, `mc-pin`,
    // `visa-decline`), issued in Belgium like the EU terminals, so no currency conversion is offered.
    static let visa = TestCard(
        name: "visa", pan: "4761730000000011", expiry: "2812", brand: .visa, country: "BE", aid: "A0000000031010",
        applicationLabel: "VISA DEBIT", cvm: .noCVM, panSequence: "01")
    static let mastercardPin = TestCard(
        name: "mc-pin", pan: "5555555555554444", expiry: "3012", brand: .mastercard, country: "BE", aid: "A0000000041010",
        applicationLabel: "MASTERCARD", cvm: .onlinePin, pin: "1234", panSequence: "01")
    static let visaDecline = TestCard(
        name: "visa-decline", pan: "4000000000000002", expiry: "3012", brand: .visa, country: "BE", aid: "A0000000031010",
        applicationLabel: "VISA DEBIT", cvm: .noCVM, panSequence: "01", flags: [.decline])
}

/// The customer the next card screen meets. The SDK asks for the script on its own task, so the
/// choice the app's screens make lives behind a lock.
final class CustomerChoice: Sendable {
    private let current = Mutex(Customer.taps)

    var customer: Customer {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
