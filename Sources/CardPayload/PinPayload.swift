/// The plaintext of a sealed PIN entry, sent when the host answered `PIN_REQUESTED`.
///
/// ```json
/// {"v": 1, "readId": "0c2a1d5e8f3b47a69d1e2f3a4b5c6d7e", "readAt": 1795956530120, "pin": "1234"}
/// ```
///
/// It is sealed exactly like a ``CardPayload`` (same key, same associated data) and carries a
/// fresh `readId`, so the host's one replay check covers both. Decoding refuses a `card` key,
/// so a card payload never opens as a PIN payload.
public struct PinPayload: Codable, Sendable, Equatable, Hashable {
    /// The format version, always ``CardPayload/currentVersion``.
    public var v: Int
    /// 32 lowercase hex characters, unique per sealed payload.
    public var readId: String
    /// When the PIN was entered, in milliseconds since 1970 on the host's clock.
    public var readAt: Int64
    /// The digits the customer typed.
    public var pin: String

    /// A PIN payload of the current version.
    ///
    /// - Parameters:
    ///   - readId: 32 lowercase hex characters.
    ///   - readAt: Milliseconds since 1970 on the host's clock.
    ///   - pin: The digits typed.
    public init(readId: String, readAt: Int64, pin: String) {
        self.v = CardPayload.currentVersion
        self.readId = readId
        self.readAt = readAt
        self.pin = pin
    }

    private enum CodingKeys: String, CodingKey {
        case v, readId, readAt, pin, card
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        v = try container.decode(Int.self, forKey: .v)
        readId = try container.decode(String.self, forKey: .readId)
        readAt = try container.decode(Int64.self, forKey: .readAt)
        pin = try container.decode(String.self, forKey: .pin)
        guard !container.contains(.card) else {
            throw DecodingError.dataCorruptedError(
                forKey: .card, in: container, debugDescription: "a PIN payload carries no card")
        }
        guard v == CardPayload.currentVersion else {
            throw DecodingError.dataCorruptedError(forKey: .v, in: container, debugDescription: "unsupported version \(v)")
        }
        guard ReadID.isValid(readId) else {
            throw DecodingError.dataCorruptedError(
                forKey: .readId, in: container, debugDescription: "must be 32 lowercase hex characters")
        }
        guard CardData.isDigits(pin, count: 4...12) else {
            throw DecodingError.dataCorruptedError(forKey: .pin, in: container, debugDescription: "must be 4 to 12 digits")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(v, forKey: .v)
        try container.encode(readId, forKey: .readId)
        try container.encode(readAt, forKey: .readAt)
        try container.encode(pin, forKey: .pin)
    }
}
