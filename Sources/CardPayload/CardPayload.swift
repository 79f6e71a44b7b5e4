/// The plaintext of a sealed card read: what the simulated reader hands the host.
///
/// ```json
/// {"v": 1, "readId": "9f86d081884c7d659a2feaa0c55ad015", "readAt": 1795956502555,
///  "card": {"pan": "4761730000000011", "expiry": "2812", "brand": "VISA", "country": "BE",
///           "aid": "A0000000031010", "applicationLabel": "VISA DEBIT", "cvm": "none",
///           "panSequence": "01"},
///  "pin": null}
/// ```
///
/// The reader seals it with ``PayloadSealer/seal(_:key:region:terminalId:random:)``; the host
/// opens it with ``PayloadSealer/open(_:as:key:region:terminalId:)``, refuses a `readId` it has
/// seen and a `readAt` older than ``ReaderTimeouts/payloadLifetime``.
///
/// Decoding requires `v` 1, a well-formed `readId`, and the `card` key (its value may be
/// `null`), so a ``PinPayload`` never opens as a card payload.
public struct CardPayload: Codable, Sendable, Equatable, Hashable {
    /// The format version this module writes and reads.
    public static let currentVersion = 1

    /// The format version, always ``currentVersion``.
    public var v: Int
    /// 32 lowercase hex characters, unique per read: the host's replay key.
    public var readId: String
    /// When the card was tapped, in milliseconds since 1970 on the host's clock.
    public var readAt: Int64
    /// The card as read, or `nil` when the read carried no card data.
    public var card: CardData?
    /// The PIN the customer typed on the reader for an online-PIN card, or `nil`.
    public var pin: String?

    /// A payload of the current version.
    ///
    /// - Parameters:
    ///   - readId: 32 lowercase hex characters (``ReadID/make(random:)``).
    ///   - readAt: Milliseconds since 1970 on the host's clock.
    ///   - card: The card read.
    ///   - pin: The PIN typed, or `nil`.
    public init(readId: String, readAt: Int64, card: CardData?, pin: String? = nil) {
        self.v = Self.currentVersion
        self.readId = readId
        self.readAt = readAt
        self.card = card
        self.pin = pin
    }

    private enum CodingKeys: String, CodingKey {
        case v, readId, readAt, card, pin
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        v = try container.decode(Int.self, forKey: .v)
        readId = try container.decode(String.self, forKey: .readId)
        readAt = try container.decode(Int64.self, forKey: .readAt)
        guard container.contains(.card) else {
            throw DecodingError.keyNotFound(
                CodingKeys.card, .init(codingPath: container.codingPath, debugDescription: "a card payload names its card"))
        }
        card = try container.decodeIfPresent(CardData.self, forKey: .card)
        pin = try container.decodeIfPresent(String.self, forKey: .pin)
        guard v == Self.currentVersion else {
            throw DecodingError.dataCorruptedError(forKey: .v, in: container, debugDescription: "unsupported version \(v)")
        }
        guard ReadID.isValid(readId) else {
            throw DecodingError.dataCorruptedError(
                forKey: .readId, in: container, debugDescription: "must be 32 lowercase hex characters")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(v, forKey: .v)
        try container.encode(readId, forKey: .readId)
        try container.encode(readAt, forKey: .readAt)
        try container.encode(card, forKey: .card)
        try container.encode(pin, forKey: .pin)
    }
}
