import Foundation
import SandboxCrypto

/// What the simulated issuer knows of the test cards: their PIN and whether it declines them.
///
/// Read from `sandbox-data/cards.json` (the same file the simulated reader taps); the host keeps
/// only a hash of each PAN, as an issuer would keep its own records apart from the acquirer's.
public struct Issuer: Sendable {
    struct Record: Sendable {
        let pin: String?
        let declines: Bool
    }

    private let records: [String: Record]

    public init(cardsFile: URL) throws {
        struct File: Decodable {
            struct Card: Decodable {
                let pan: String
                let pin: String?
                let flags: [String]?
            }
            let cards: [Card]
        }
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: cardsFile))
        var records: [String: Record] = [:]
        for card in file.cards {
            records[Self.key(card.pan)] = Record(pin: card.pin, declines: card.flags?.contains("decline") ?? false)
        }
        self.records = records
    }

    /// No cards at all: every card is unknown (approves by magic amount, no PIN on record).
    public init() { records = [:] }

    static func key(_ pan: String) -> String { SHA256.hexDigest(pan) }

    /// True when the issuer refuses this card whatever the amount (response 05).
    func declines(panHash: String) -> Bool { records[panHash]?.declines ?? false }

    /// Whether a PIN is the card's; a card the issuer does not know accepts "1234", the sandbox's test PIN.
    func pinMatches(_ pin: String, panHash: String) -> Bool {
        let expected = records[panHash]?.pin ?? "1234"
        return ConstantTime.equals(Array(pin.utf8), Array(expected.utf8))
    }
}
