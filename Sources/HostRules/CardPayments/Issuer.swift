import HostStorage
import CardPayload
import Foundation
import SandboxCrypto

/// What the simulated issuer knows of the test cards: their PIN and whether it declines them.
///
/// Read from `sandbox-data/cards.json` (the same file the simulated reader taps); the host keeps
/// only a hash of each PAN, as an issuer would keep its own records apart from the acquirer's.
public struct Issuer: Sendable {
    package struct Record: Sendable {
        package let pin: String?
        package let declines: Bool
    }

    private let records: [String: Record]
    /// The cards with every field of a read, by their short name (`visa-es`): what the MONEI host's
    /// sandbox tap (`POST /_sandbox/monei/card-read`) reads.
    private let cards: [String: CardData]
    /// Each named card's entry of the file as JSON (`{"name":"visa","pan":…}`): what a device that has
    /// no catalogue of its own is handed with a scripted customer's tap (`/_sandbox/customer`).
    private let entries: [String: String]
    /// The cards sample webhooks are paid with (`POST /_sandbox/webhooks/trigger`): the file's first
    /// card without flags or PIN, and its first card flagged `decline`.
    private let approvingSample: CardData?
    private let decliningSample: CardData?

    public init(cardsFile: URL) throws {
        struct File: Decodable {
            package struct Card: Decodable {
                package let name: String?
                package let pan: String
                package let pin: String?
                package let flags: [String]?
                /// The card as a reader reads it, when the entry has every field of one.
                package let card: CardData?

                package init(from decoder: any Decoder) throws {
                    enum Keys: String, CodingKey { case name, pan, pin, flags }
                    let container = try decoder.container(keyedBy: Keys.self)
                    name = try container.decodeIfPresent(String.self, forKey: .name)
                    pan = try container.decode(String.self, forKey: .pan)
                    pin = try container.decodeIfPresent(String.self, forKey: .pin)
                    flags = try container.decodeIfPresent([String].self, forKey: .flags)
                    card = try? CardData(from: decoder)
                }
            }
            package let cards: [Card]
        }
        let bytes = try Data(contentsOf: cardsFile)
        let file = try JSONDecoder().decode(File.self, from: bytes)
        var entries: [String: String] = [:]
        if let root = try JSONSerialization.jsonObject(with: bytes) as? [String: Any], let list = root["cards"] as? [[String: Any]] {
            for entry in list {
                guard let name = entry["name"] as? String else { continue }
                entries[name] = String(decoding: try JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys]), as: UTF8.self)
            }
        }
        self.entries = entries
        var records: [String: Record] = [:]
        for card in file.cards {
            records[Self.key(card.pan)] = Record(pin: card.pin, declines: card.flags?.contains("decline") ?? false)
        }
        self.records = records
        var cards: [String: CardData] = [:]
        for card in file.cards { if let name = card.name, let data = card.card { cards[name] = data } }
        self.cards = cards
        approvingSample = file.cards.first { ($0.flags ?? []).isEmpty && $0.pin == nil && $0.card?.cvm == .noCVM }?.card
        decliningSample = file.cards.first { $0.flags == ["decline"] && $0.pin == nil }?.card
    }

    /// No cards at all: every card is unknown (approves by magic amount, no PIN on record).
    public init() {
        records = [:]
        cards = [:]
        entries = [:]
        approvingSample = nil
        decliningSample = nil
    }

    /// The test card a sample payment is made with: one the issuer approves, or one it always declines.
    package func sampleCard(declining: Bool) -> CardData? { declining ? decliningSample : approvingSample }

    /// The test card of this short name, as a reader reads it.
    package func card(named name: String) -> CardData? { cards[name] }

    /// The file's entry of the card of this short name, as JSON.
    package func entry(named name: String) -> String? { entries[name] }

    package static func key(_ pan: String) -> String { SHA256.hexDigest(pan) }

    /// True when the issuer refuses this card whatever the amount (response 05).
    package func declines(panHash: String) -> Bool { records[panHash]?.declines ?? false }

    /// Whether a PIN is the card's; a card the issuer does not know accepts "1234", the sandbox's test PIN.
    package func pinMatches(_ pin: String, panHash: String) -> Bool {
        let expected = records[panHash]?.pin ?? "1234"
        return ConstantTime.equals(Array(pin.utf8), Array(expected.utf8))
    }
}
