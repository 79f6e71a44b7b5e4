import Foundation
import SimulatedReader

/// The checkout's test cards (`sandbox-data/cards.json`), loaded once for the test process.
public enum ShippedCards {
    public static let catalogue: CardCatalogue = {
        do {
            return try CardCatalogue.load(from: Paths.sandboxData.appendingPathComponent("cards.json"))
        } catch {
            fatalError("cards.json: \(error)")
        }
    }()

    /// The card called `name`; a test that names a card the file lacks stops at once.
    public static func card(_ name: String) -> TestCard {
        guard let card = catalogue.card(named: name) else { fatalError("cards.json has no card \(name)") }
        return card
    }
}
