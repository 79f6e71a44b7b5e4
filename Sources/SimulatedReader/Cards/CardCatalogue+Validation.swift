import CardPayload
import Foundation

extension CardCatalogue {
    /// The fields of one card in the file; anything else is refused.
    private static let fields: Set<String> = [
        "name", "pan", "expiry", "brand", "country", "aid", "applicationLabel", "cvm", "pin", "panSequence", "flags",
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
                        file: file, path: "\(path).flags[\(flagIndex)]", reason: "must be \"expired\" or \"decline\"")
                }
                flags.append(flag)
            }
            cards.append(
                TestCard(
                    name: try string("name"), pan: try string("pan"), expiry: try string("expiry"), brand: brand,
                    country: try string("country"), aid: try string("aid"),
                    applicationLabel: try string("applicationLabel"), cvm: cvm, pin: try optionalString("pin"),
                    panSequence: try optionalString("panSequence"), flags: flags))
        }
        return cards
    }

    /// The first rule `card` breaks, as the field and the reason, or `nil`.
    static func problem(with card: TestCard) -> (field: String, text: String)? {
        let nameBytes = card.name.utf8
        guard !nameBytes.isEmpty,
            nameBytes.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") })
        else { return ("name", "must be lowercase letters, digits and -") }
        guard isDigits(card.pan), (12...19).contains(card.pan.count) else { return ("pan", "must be 12 to 19 digits") }
        guard Luhn.isValid(card.pan) else { return ("pan", "fails the Luhn check") }
        if let rule = panRuleBroken(card.pan, brand: card.brand) { return ("pan", rule) }
        guard CardData.isValidExpiry(card.expiry) else { return ("expiry", "must be YYMM with a month 01-12") }
        guard card.country.utf8.count == 2, card.country.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
            return ("country", "must be an ISO 3166-1 alpha-2 code in upper case")
        }
        guard (10...32).contains(card.aid.count), card.aid.count.isMultiple(of: 2), card.aid.allSatisfy(\.isHexDigit)
        else { return ("aid", "must be 5 to 16 bytes of hex") }
        guard card.aid.uppercased().hasPrefix(card.brand.applicationProviderID) else {
            return ("aid", "must start with \(card.brand.rawValue)'s RID \(card.brand.applicationProviderID)")
        }
        guard (1...16).contains(card.applicationLabel.count) else { return ("applicationLabel", "must be 1 to 16 characters") }
        switch (card.cvm, card.pin) {
        case (.onlinePin, nil): return ("pin", "an onlinePin card needs a PIN")
        case (.onlinePin, let pin?) where !isDigits(pin) || !(4...12).contains(pin.count):
            return ("pin", "must be 4 to 12 digits")
        case (.noCVM, .some): return ("pin", "must be null for a card with cvm \"none\"")
        default: break
        }
        if let sequence = card.panSequence, !(isDigits(sequence) && sequence.count == 2) {
            return ("panSequence", "must be two digits or null")
        }
        if Set(card.flags).count != card.flags.count { return ("flags", "lists a flag twice") }
        return nil
    }

    /// Why `pan` cannot be a card of `brand` (prefix or length), or `nil`.
    private static func panRuleBroken(_ pan: String, brand: CardBrand) -> String? {
        func prefix(_ count: Int) -> Int { Int(pan.prefix(count)) ?? -1 }
        let length = pan.count
        switch brand {
        case .visa:
            guard pan.hasPrefix("4") else { return "a VISA PAN starts with 4" }
            guard [13, 16, 19].contains(length) else { return "a VISA PAN has 13, 16 or 19 digits" }
        case .mastercard:
            guard (51...55).contains(prefix(2)) || (2221...2720).contains(prefix(4)) else {
                return "a MASTERCARD PAN starts with 51-55 or 2221-2720"
            }
            guard length == 16 else { return "a MASTERCARD PAN has 16 digits" }
        case .maestro:
            guard prefix(2) == 50 || (56...69).contains(prefix(2)) else { return "a MAESTRO PAN starts with 50 or 56-69" }
        case .amex:
            guard [34, 37].contains(prefix(2)) else { return "an AMEX PAN starts with 34 or 37" }
            guard length == 15 else { return "an AMEX PAN has 15 digits" }
        case .discover:
            guard pan.hasPrefix("6011") || pan.hasPrefix("65") || (644...649).contains(prefix(3)) else {
                return "a DISCOVER PAN starts with 6011, 644-649 or 65"
            }
            guard length >= 16 else { return "a DISCOVER PAN has 16 to 19 digits" }
        case .jcb:
            guard (3528...3589).contains(prefix(4)) else { return "a JCB PAN starts with 3528-3589" }
            guard length >= 16 else { return "a JCB PAN has 16 to 19 digits" }
        case .unionPay:
            guard pan.hasPrefix("62") else { return "a UNIONPAY PAN starts with 62" }
            guard length >= 16 else { return "a UNIONPAY PAN has 16 to 19 digits" }
        case .eftpos:
            // eftpos cards are often co-badged, so any prefix; the sandbox's are 16 digits.
            guard length == 16 else { return "an EFTPOS PAN has 16 digits" }
        }
        return nil
    }

    private static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }
}
