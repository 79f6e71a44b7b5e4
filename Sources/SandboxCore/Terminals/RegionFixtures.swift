/// The merchants and terminals of one region, with the key its back office answers to.
///
/// ```json
/// { "backOfficeKey": "bo_test_eu_…", "merchants": [ { "id": "EU-M01", … } ] }
/// ```
public struct RegionFixtures: Codable, Sendable, Equatable {
    /// The back-office API credential of the region (`Authorization: Bearer <backOfficeKey>`).
    public var backOfficeKey: String
    /// The merchants in file order: `merchants.json` first, then each `local/*.json` in name order.
    public var merchants: [Merchant]

    public init(backOfficeKey: String, merchants: [Merchant]) {
        self.backOfficeKey = backOfficeKey
        self.merchants = merchants
    }

    /// The merchant with this id, or nil.
    public func merchant(_ id: String) -> Merchant? {
        merchants.first { $0.id == id }
    }

    /// The merchant whose API key this is, or nil.
    public func merchant(apiKey: String) -> Merchant? {
        merchants.first { $0.apiKey == apiKey }
    }

    /// The terminal with this id and the merchant it belongs to, or nil.
    public func terminal(_ id: String) -> (merchant: Merchant, terminal: TerminalProfile)? {
        for merchant in merchants {
            if let terminal = merchant.terminal(id) { return (merchant, terminal) }
        }
        return nil
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case backOfficeKey, merchants
    }

    /// Decodes a region's fixtures on their own, checking only the rules that need no region.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, region: nil, shippedBackOfficeKey: nil)
    }

    /// Decodes a region's fixtures and checks every terminal against `region`.
    ///
    /// - Parameters:
    ///   - region: the catalogue's region of this id, or nil to skip region rules.
    ///   - shippedBackOfficeKey: for a `local/*.json` file, the key `merchants.json` gives the
    ///     region. A local file may leave `backOfficeKey` out (or null) or repeat that key; a
    ///     different key is refused, because one region has one back office.
    /// - Throws: `DecodingError` at the offending field's path.
    init(from decoder: any Decoder, region: Region?, shippedBackOfficeKey: String?) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let shippedBackOfficeKey {
            let key = try container.decodeIfPresent(String.self, forKey: .backOfficeKey) ?? shippedBackOfficeKey
            guard key == shippedBackOfficeKey else {
                throw DecodingError.dataCorruptedError(
                    forKey: .backOfficeKey, in: container,
                    debugDescription: "must be left out or be the region's key from merchants.json (\(shippedBackOfficeKey))")
            }
            backOfficeKey = key
        } else {
            backOfficeKey = try container.decode(.backOfficeKey, checkedBy: FixtureRules.keyProblem)
        }
        merchants = try container.decodeObjects(forKey: .merchants) { decoder, _ in
            try Merchant(from: decoder, region: region)
        }
        guard !merchants.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .merchants, in: container, debugDescription: "must list at least one merchant")
        }
    }
}
