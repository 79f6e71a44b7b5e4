import Foundation
import SandboxWire

extension CardScript {
    /// The script of a customer a test queued on the sandbox (`POST /_sandbox/customer/{terminalId}/next`
    /// answers ``CustomerTurnTaken`` with the tapped card's entry of `cards.json`), so a device with
    /// no catalogue of its own plays the card the host names.
    ///
    /// ```swift
    /// // {"turn":{"action":"tap","card":"mc-pin","pin":"wrong"},"cards":[{"name":"mc-pin","pan":"5555555555554444",…}]}
    /// let script = try CardScript(takenTurn: body)   // .tap(mc-pin, after: 2, pin: .wrong)
    /// ```
    ///
    /// - Parameter body: The answer's bytes.
    /// - Returns: `nil` when the queue was empty (`"turn": null`).
    /// - Throws: ``ReaderError/invalidCatalogue`` when the card's entry is missing or breaks a rule
    ///   of the catalogue; a `DecodingError` when the answer is not a taken turn.
    public init?(takenTurn body: Data) throws {
        guard let turn = try JSONDecoder().decode(CustomerTurnTaken.self, from: body).turn else { return nil }
        switch turn.action {
        case .noTap:
            self = .noTap()
        case .cancel:
            self = .cancel(after: turn.seconds)
        case .tap:
            let cards = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["cards"] ?? []
            let catalogue = try CardCatalogue(json: try JSONSerialization.data(withJSONObject: ["cards": cards]), file: "the host's answer")
            guard let card = catalogue.card(named: turn.card ?? "") else {
                throw ReaderError.invalidCatalogue(file: "the host's answer", path: "cards", reason: "has no card \(turn.card ?? "")")
            }
            let pin = turn.pin == "deferred" ? PinEntry.deferred : turn.pin.flatMap(PinEntry.init(argument:)) ?? .correct
            self = .tap(
                card, after: turn.seconds, pin: pin, pinOnRequest: pin == .deferred ? .correct : pin, dccOfferAccepted: turn.dccOfferAccepted)
        }
    }
}
