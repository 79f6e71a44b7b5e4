import CardPayload
import Foundation

extension CardCatalogue {
    /// The fields of one card in the file; anything else is refused.
    private static let fields: Set<String> = [
        "name", "pan", "expiry", "brand", "country", "aid", "applicationLabel", "cvm", "pin", "panSequence", "flags", "applications",
    ]

    /// Parses the JSON into cards, naming the first field that is missing or mistyped.
    static func decode(_ json: Data, file: String) throws(ReaderError) -> [TestCard] {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: json)
        } catch {
            throw .invalidCatalogue(file: file, path: "(root)", reason: "not valid JSON")
        }
        guard let object = root as? [String: Any] else {
            throw .invalidCatalogue(file: file, path: "(root)", reason: "must be an object with \"cards\"")
        }
        if let unknown = object.keys.sorted().first(where: { $0 != "cards" }) {
            throw .invalidCatalogue(file: file, path: unknown, reason: "unknown field")
        }
        guard let list = object["cards"] as? [Any] else {
            throw .invalidCatalogue(file: file, path: "cards", reason: "must be a list of cards")
        }
        var cards: [TestCard] = []
        for (index, element) in list.enumerated() {
            let path = "cards[\(index)]"
            guard let fields = element as? [String: Any] else {
                throw .invalidCatalogue(file: file, path: path, reason: "must be an object")
            }
            if let unknown = fields.keys.sorted().first(where: { !Self.fields.contains($0) }) {
                throw .invalidCatalogue(file: file, path: "\(path).\(unknown)", reason: "unknown field")
            }
            func string(_ key: String) throws(ReaderError) -> String {
                guard let value = fields[key] else {
                    throw .invalidCatalogue(file: file, path: "\(path).\(key)", reason: "missing")
                }
                guard let text = value as? String else {
                    throw .invalidCatalogue(file: file, path: "\(path).\(key)", reason: "must be a string")
                }
                return text
            }
            func optionalString(_ key: String) throws(ReaderError) -> String? {
                guard let value = fields[key], !(value is NSNull) else { return nil }
                guard let text = value as? String else {
                    throw .invalidCatalogue(file: file, path: "\(path).\(key)", reason: "must be a string or null")
                }
                return text
            }
            let brandName = try string("brand")
            guard let brand = CardBrand(rawValue: brandName) else {
                let known = CardBrand.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidCatalogue(
                    file: file, path: "\(path).brand", reason: "\"\(brandName)\" is not one of \(known)")
            }
            let cvmName = try string("cvm")
            guard let cvm = CardholderVerification(rawValue: cvmName) else {
                throw .invalidCatalogue(file: file, path: "\(path).cvm", reason: "must be \"none\" or \"onlinePin\"")
            }
            guard let flagNames = (fields["flags"] ?? [Any]()) as? [Any] else {
                throw .invalidCatalogue(file: file, path: "\(path).flags", reason: "must be a list")
            }
            var flags: [TestCard.Flag] = []
            for (flagIndex, flagName) in flagNames.enumerated() {
                guard let name = flagName as? String, let flag = TestCard.Flag(rawValue: name) else {
                    throw .invalidCatalogue(
                        file: file, path: "\(path).flags[\(flagIndex)]",
                        reason: "must be \"expired\", \"decline\" or \"malformed\"")
                }
                flags.append(flag)
            }
            var applications: [CardApplication] = []
            if let value = fields["applications"], !(value is NSNull) {
                guard let list = value as? [Any] else {
                    throw .invalidCatalogue(file: file, path: "\(path).applications", reason: "must be a list")
                }
                for (appIndex, entry) in list.enumerated() {
                    let appPath = "\(path).applications[\(appIndex)]"
                    guard let app = entry as? [String: Any], Set(app.keys) == ["aid", "applicationLabel"],
                        let appAID = app["aid"] as? String, let label = app["applicationLabel"] as? String
                    else {
                        throw .invalidCatalogue(file: file, path: appPath, reason: "must be {\"aid\", \"applicationLabel\"} strings")
                    }
                    applications.append(CardApplication(aid: appAID, applicationLabel: label))
                }
            }
            cards.append(
                TestCard(
                    name: try string("name"), pan: try string("pan"), expiry: try string("expiry"), brand: brand,
                    country: try string("country"), aid: try string("aid"),
                    applicationLabel: try string("applicationLabel"), cvm: cvm, pin: try optionalString("pin"),
                    panSequence: try optionalString("panSequence"), flags: flags, applications: applications))
        }
        return cards
    }

    /// The first rule `card` breaks, as the field and the reason, or `nil`.
    ///
    /// The card's data follows the rules of a card read (``CardData/problem``), the ones the
    /// host refuses a read for, unless the card is flagged `malformed`: then it must break one
    /// of them, so the host's refusal can be tried with it.
    static func problem(with card: TestCard) -> (field: String, text: String)? {
        let nameBytes = card.name.utf8
        guard !nameBytes.isEmpty,
            nameBytes.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") })
        else { return ("name", "must be lowercase letters, digits and -") }
        let cardProblem = card.cardData.problem
        if card.has(.malformed) {
            if cardProblem == nil { return ("flags", "lists \"malformed\", but the card breaks no rule of a card read") }
        } else if let cardProblem {
            return (cardProblem.field, cardProblem.reason)
        }
        switch (card.cvm, card.pin) {
        case (.onlinePin, nil): return ("pin", "an onlinePin card needs a PIN")
        case (.onlinePin, let pin?) where !isDigits(pin) || !(4...12).contains(pin.count):
            return ("pin", "must be 4 to 12 digits")
        case (.noCVM, .some): return ("pin", "must be null for a card with cvm \"none\"")
        default: break
        }
        if Set(card.flags).count != card.flags.count { return ("flags", "lists a flag twice") }
        if !card.applications.isEmpty {
            guard card.applications.count >= 2 else { return ("applications", "lists at least two applications, or is left out") }
            guard card.applications[0] == CardApplication(aid: card.aid, applicationLabel: card.applicationLabel) else {
                return ("applications", "must start with the card's own aid and applicationLabel")
            }
            guard Set(card.applications.map(\.aid)).count == card.applications.count else {
                return ("applications", "lists an aid twice")
            }
            for (index, application) in card.applications.enumerated() {
                if let problem = card.cardData(paying: application).problem {
                    return ("applications[\(index)].\(problem.field)", problem.reason)
                }
            }
        }
        return nil
    }

    private static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }
}
