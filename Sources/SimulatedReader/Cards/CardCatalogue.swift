import CardPayload
import Foundation

/// The test cards of `sandbox-data/cards.json`, checked.
///
/// ```json
/// {"cards": [
///   {"name": "visa", "pan": "4761730000000011", "expiry": "2812", "brand": "VISA", "country": "BE",
///    "aid": "A0000000031010", "applicationLabel": "VISA DEBIT", "cvm": "none", "pin": null,
///    "panSequence": "01", "flags": []}
/// ]}
/// ```
///
/// Loading refuses a file that breaks any rule (see ``init(cards:)``) with one line naming the
/// file, the field and the problem, as the other sandbox files do:
///
/// ```text
/// cards.json: cards[3].pan: fails the Luhn check
/// ```
///
/// ```swift
/// let catalogue = try CardCatalogue.load(from: sandboxData.appendingPathComponent("cards.json"))
/// let visa = catalogue.card(named: "visa")
/// ```
public struct CardCatalogue: Sendable, Equatable {
    /// The cards in file order.
    public let cards: [TestCard]

    /// Checks cards given in code.
    ///
    /// Rules: at least one card; names unique, lowercase `[a-z0-9-]`; the card's data follows
    /// the rules of a card read (``CardData/problem``: PAN 12–19 digits, Luhn-valid, with the
    /// brand's prefix and length; expiry `YYMM`; an ISO 3166-1 country; AID 5–16 bytes of hex
    /// starting with the brand's RID; label 1–16 characters; PAN sequence two digits or absent),
    /// or breaks one of them when the card is flagged `malformed`; `onlinePin` cards have a 4–12
    /// digit PIN and `none` cards none; flags listed once each.
    ///
    /// - Parameter cards: The cards.
    /// - Throws: ``ReaderError/invalidCatalogue`` naming the first broken field.
    public init(cards: [TestCard]) throws(ReaderError) {
        try self.init(checking: cards, file: "(code)")
    }

    /// Reads and checks a card file.
    ///
    /// - Parameter url: The file, normally `sandbox-data/cards.json`.
    /// - Returns: The catalogue.
    /// - Throws: ``ReaderError/invalidCatalogue``.
    public static func load(from url: URL) throws(ReaderError) -> CardCatalogue {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .invalidCatalogue(file: url.lastPathComponent, path: "(root)", reason: "cannot be read")
        }
        return try CardCatalogue(json: data, file: url.lastPathComponent)
    }

    /// Checks a card file's bytes.
    ///
    /// - Parameters:
    ///   - json: The file's contents.
    ///   - file: The name used in error messages.
    /// - Throws: ``ReaderError/invalidCatalogue``.
    public init(json: Data, file: String = "cards.json") throws(ReaderError) {
        try self.init(checking: try Self.decode(json, file: file), file: file)
    }

    private init(checking cards: [TestCard], file: String) throws(ReaderError) {
        guard !cards.isEmpty else { throw .invalidCatalogue(file: file, path: "cards", reason: "must list at least one card") }
        var seen: [String: Int] = [:]
        for (index, card) in cards.enumerated() {
            let path = "cards[\(index)]"
            if let reason = Self.problem(with: card) {
                throw .invalidCatalogue(file: file, path: "\(path).\(reason.field)", reason: reason.text)
            }
            if let first = seen[card.name] {
                throw .invalidCatalogue(
                    file: file, path: "\(path).name", reason: "\"\(card.name)\" is already used by cards[\(first)]")
            }
            seen[card.name] = index
        }
        self.cards = cards
    }

    /// The card with this short name.
    ///
    /// - Parameter name: For example `visa-us-dcc`.
    /// - Returns: The card, or `nil` when the catalogue has none by that name.
    public func card(named name: String) -> TestCard? {
        cards.first { $0.name == name }
    }

    /// Every card's name, in file order.
    public var names: [String] { cards.map(\.name) }
}
