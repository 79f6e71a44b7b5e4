/// What the reader's kernel read from the card: the `card` object of a ``CardPayload``.
///
/// ```json
/// {"pan": "4761730000000011", "expiry": "2812", "brand": "VISA", "country": "BE",
///  "aid": "A0000000031010", "applicationLabel": "VISA DEBIT", "cvm": "none", "panSequence": "01"}
/// ```
///
/// Decoding checks each field against the rules of a card read (``problem``: digits and Luhn,
/// brand against PAN and AID, `YYMM`, ISO country, hex AID), so a host that opens a payload can
/// trust what it reads; whether the card is expired or declined is the host's decision, not the
/// decoder's. Encoding writes what it is given, so a reader can seal a malformed test card and
/// the host's refusal can be tried.
public struct CardData: Codable, Sendable, Equatable, Hashable {
    /// The primary account number: 12 to 19 digits.
    public var pan: String
    /// The expiry as `YYMM`; the card is valid until the end of that month.
    public var expiry: String
    /// The card scheme.
    public var brand: CardBrand
    /// The issuing country, ISO 3166-1 alpha-2 (`BE`, `US`).
    public var country: String
    /// The EMV application identifier that was selected, upper-case hex.
    public var aid: String
    /// The application label the card presents (`VISA DEBIT`).
    public var applicationLabel: String
    /// How the cardholder is verified.
    public var cvm: CardholderVerification
    /// The PAN sequence number (`01`), when the card has one.
    public var panSequence: String?

    /// A card read; the fields are taken as given.
    ///
    /// - Parameters:
    ///   - pan: 12 to 19 digits.
    ///   - expiry: `YYMM`.
    ///   - brand: The scheme.
    ///   - country: ISO 3166-1 alpha-2 issuing country.
    ///   - aid: Application identifier, hex.
    ///   - applicationLabel: The label the card presents.
    ///   - cvm: How the cardholder is verified.
    ///   - panSequence: Two digits, or `nil`.
    public init(
        pan: String, expiry: String, brand: CardBrand, country: String, aid: String,
        applicationLabel: String, cvm: CardholderVerification, panSequence: String? = nil
    ) {
        self.pan = pan
        self.expiry = expiry
        self.brand = brand
        self.country = country
        self.aid = aid
        self.applicationLabel = applicationLabel
        self.cvm = cvm
        self.panSequence = panSequence
    }

    private enum CodingKeys: String, CodingKey {
        case pan, expiry, brand, country, aid, applicationLabel, cvm, panSequence
    }

    /// Decodes a card and checks it against the rules of a card read (``problem``).
    ///
    /// - Throws: `DecodingError` for a missing or mistyped field; ``PayloadError/unknownBrand`` and
    ///   ``PayloadError/unknownCVM`` for a name the sandbox does not know; the ``Problem/error`` of
    ///   the first rule broken (``PayloadError/invalidPAN``, ``PayloadError/invalidCountry``,
    ///   ``PayloadError/brandMismatch``, ``PayloadError/invalidCardData``). The host answers each
    ///   with its own error code, so a deliberately malformed test card is told apart from a
    ///   tampered payload.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pan = try container.decode(String.self, forKey: .pan)
        expiry = try container.decode(String.self, forKey: .expiry)
        let brandName = try container.decode(String.self, forKey: .brand)
        country = try container.decode(String.self, forKey: .country)
        aid = try container.decode(String.self, forKey: .aid)
        applicationLabel = try container.decode(String.self, forKey: .applicationLabel)
        let cvmName = try container.decode(String.self, forKey: .cvm)
        panSequence = try container.decodeIfPresent(String.self, forKey: .panSequence)

        guard let brand = CardBrand(rawValue: brandName) else {
            let known = CardBrand.allCases.map(\.rawValue).joined(separator: ", ")
            throw PayloadError.card(.unknownBrand, "The card's brand \"\(brandName)\" is not one of \(known).")
        }
        self.brand = brand
        guard let cvm = CardholderVerification(rawValue: cvmName) else {
            throw PayloadError.card(.unknownCVM, "The card's cvm \"\(cvmName)\" is neither none nor onlinePin.")
        }
        self.cvm = cvm
        if let problem { throw problem.error }
    }

    // Optional fields are written as null, never left out, as the contract shows them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pan, forKey: .pan)
        try container.encode(expiry, forKey: .expiry)
        try container.encode(brand, forKey: .brand)
        try container.encode(country, forKey: .country)
        try container.encode(aid, forKey: .aid)
        try container.encode(applicationLabel, forKey: .applicationLabel)
        try container.encode(cvm, forKey: .cvm)
        try container.encode(panSequence, forKey: .panSequence)
    }
}

extension CardData {
    /// Whether `text` is only ASCII digits and has a length in `count`.
    static func isDigits(_ text: String, count: ClosedRange<Int>) -> Bool {
        count.contains(text.utf8.count) && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// Whether `text` is only upper- or lowercase hex digits and has a length in `count`.
    static func isHex(_ text: String, count: ClosedRange<Int>) -> Bool {
        count.contains(text.utf8.count) && text.allSatisfy(\.isHexDigit)
    }

    /// Whether `text` is two upper-case ASCII letters (the shape only: ``isCountry(_:)`` checks the code).
    static func isCountryCode(_ text: String) -> Bool {
        text.utf8.count == 2 && text.utf8.allSatisfy { (0x41...0x5A).contains($0) }
    }
}
