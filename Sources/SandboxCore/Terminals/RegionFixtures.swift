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
    /// The partner apps whose `appKey` activates a device for one of their sellers (PagBank's Tap
    /// On, docs/pagbank.md); none on most regions.
    public var partners: [Partner]

    /// A partner app: its key, its name, and the merchants (sellers) it may activate devices for.
    ///
    /// ```json
    /// { "appKey": "tapon_test_…", "name": "Loja Fácil", "sellers": ["PAGBANK-M01"] }
    /// ```
    public struct Partner: Codable, Sendable, Equatable {
        public var appKey: String
        public var name: String
        /// Merchant ids of the region, the first one the default seller.
        public var sellers: [String]

        public init(appKey: String, name: String, sellers: [String]) {
            self.appKey = appKey
            self.name = name
            self.sellers = sellers
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case appKey, name, sellers
        }

        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            appKey = try container.decode(.appKey, checkedBy: FixtureRules.keyProblem)
            name = try container.decode(String.self, forKey: .name)
            sellers = try container.decode([String].self, forKey: .sellers)
            guard !sellers.isEmpty else {
                throw DecodingError.dataCorruptedError(forKey: .sellers, in: container, debugDescription: "must list at least one merchant")
            }
        }
    }

    public init(backOfficeKey: String, merchants: [Merchant], partners: [Partner] = []) {
        self.backOfficeKey = backOfficeKey
        self.merchants = merchants
        self.partners = partners
    }

    /// The partner app whose key this is, or nil.
    public func partner(appKey: String) -> Partner? {
        partners.first { $0.appKey == appKey }
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
        case backOfficeKey, merchants, partners
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
        partners = try container.decodeIfPresent([Partner].self, forKey: .partners) ?? []
    }

    /// The first partner seller that is no merchant of these fixtures, as `partners[i].sellers[j]`
    /// and the id (checked once the local files are merged in, since a seller may come from one).
    func unknownSeller() -> (path: String, id: String)? {
        for (index, partner) in partners.enumerated() {
            for (position, seller) in partner.sellers.enumerated() where merchant(seller) == nil {
                return ("partners[\(index)].sellers[\(position)]", seller)
            }
        }
        return nil
    }
}
