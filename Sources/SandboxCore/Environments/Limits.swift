/// The amount caps of a region, in minor units of its currency.
///
/// They feed the seed's `TerminalInfo.limitAmount`, `maxTipAmount` and `maxTipPercentage`.
///
/// ```json
/// { "maxTransactionAmount": 1000000, "maxTipAmount": 10000, "maxTipPercentage": 20 }
/// ```
public struct Limits: Codable, Sendable, Equatable {
    /// The largest amount one transaction may request, tip included, in minor units.
    public var maxTransactionAmount: Int
    /// The largest tip in minor units, or nil for no cap in money.
    public var maxTipAmount: Int?
    /// The largest tip as a percentage of the base amount (0 < p ≤ 100), or nil for no cap.
    public var maxTipPercentage: Double?
    /// The smallest amount a sale may request, in minor units (PagBank: R$ 1,00); nil: 1.
    public var minTransactionAmount: Int?

    public init(maxTransactionAmount: Int, maxTipAmount: Int? = nil, maxTipPercentage: Double? = nil, minTransactionAmount: Int? = nil) {
        self.maxTransactionAmount = maxTransactionAmount
        self.maxTipAmount = maxTipAmount
        self.maxTipPercentage = maxTipPercentage
        self.minTransactionAmount = minTransactionAmount
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case maxTransactionAmount, maxTipAmount, maxTipPercentage, minTransactionAmount
    }

    /// - Throws: `DecodingError` for a missing maximum, an unknown field, an amount that is
    ///   not a positive whole number or a percentage outside (0, 100].
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maxTransactionAmount = try container.decodeWholeNumber(forKey: .maxTransactionAmount)
        guard maxTransactionAmount > 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .maxTransactionAmount, in: container, debugDescription: "must be a positive amount in minor units")
        }
        maxTipAmount = try container.decodeWholeNumberIfPresent(forKey: .maxTipAmount)
        if let maxTipAmount, maxTipAmount <= 0 {
            throw DecodingError.dataCorruptedError(
                forKey: .maxTipAmount, in: container, debugDescription: "must be a positive amount in minor units or null")
        }
        maxTipPercentage = try container.decodeIfPresent(Double.self, forKey: .maxTipPercentage)
        if let maxTipPercentage, !(maxTipPercentage > 0 && maxTipPercentage <= 100) {
            throw DecodingError.dataCorruptedError(
                forKey: .maxTipPercentage, in: container, debugDescription: "must be a percentage above 0 and at most 100, or null")
        }
        minTransactionAmount = try container.decodeWholeNumberIfPresent(forKey: .minTransactionAmount)
        if let minTransactionAmount, !(1...maxTransactionAmount).contains(minTransactionAmount) {
            throw DecodingError.dataCorruptedError(
                forKey: .minTransactionAmount, in: container, debugDescription: "must be from 1 to maxTransactionAmount, or left out")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(maxTransactionAmount, forKey: .maxTransactionAmount)
        try container.encode(maxTipAmount, forKey: .maxTipAmount)
        try container.encode(maxTipPercentage, forKey: .maxTipPercentage)
        try container.encodeIfPresent(minTransactionAmount, forKey: .minTransactionAmount)
    }
}
