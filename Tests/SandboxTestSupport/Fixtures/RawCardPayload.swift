/// A card as the JSON of a sealed card payload spells it, so tests can seal what `CardData`
/// cannot hold (a PAN that fails Luhn, an unknown brand or CVM, a country that is no country).
/// The defaults are a valid Belgian Visa debit card without PIN.
public struct RawCard: Encodable, Sendable {
    public var pan: String
    public var expiry: String
    public var brand: String
    public var country: String
    public var aid: String
    public var applicationLabel: String
    public var cvm: String
    public var panSequence: String?

    public init(
        pan: String = "4761730000000011", expiry: String = "2812", brand: String = "VISA", country: String = "BE",
        aid: String = "A0000000031010", applicationLabel: String = "VISA DEBIT", cvm: String = "none",
        panSequence: String? = "01"
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
}

/// The payload a reader seals around a `RawCard` (version 1, no PIN).
public struct RawCardPayload: Encodable, Sendable {
    public let v = 1
    public let readId: String
    public let readAt: Int64
    public let card: RawCard
    public let pin: String? = nil

    public init(readId: String, readAt: Int64, card: RawCard) {
        self.readId = readId
        self.readAt = readAt
        self.card = card
    }
}
