/// A merchant of one region: who the terminal says it belongs to, and the key its backend uses.
///
/// ```json
/// { "id": "EU-M01", "name": "Brasserie Lumière", "address1": "Rue de la Montagne 14",
///   "address2": "1000 Bruxelles", "email": "owner@brasserie-lumiere.example",
///   "apiKey": "sk_test_eu_…", "terminals": [ … ] }
/// ```
public struct Merchant: Codable, Sendable, Equatable, Identifiable {
    /// The merchant id, unique across all fixture files, e.g. `EU-M01`.
    public var id: String
    /// The display name (`TerminalInfo.merchantName`).
    public var name: String
    /// The first address line, usually the street.
    public var address1: String
    /// The second address line, usually postcode and town; may be empty.
    public var address2: String
    /// Where registration tokens are e-mailed when a request names no address, or nil.
    public var email: String?
    /// The merchant API credential (`Authorization: Bearer <apiKey>`), unique across all keys.
    public var apiKey: String
    /// The merchant's terminals, at least one.
    public var terminals: [TerminalProfile]

    public init(
        id: String, name: String, address1: String, address2: String, email: String? = nil, apiKey: String,
        terminals: [TerminalProfile]
    ) {
        self.id = id
        self.name = name
        self.address1 = address1
        self.address2 = address2
        self.email = email
        self.apiKey = apiKey
        self.terminals = terminals
    }

    /// The terminal with this id, or nil.
    public func terminal(_ id: String) -> TerminalProfile? {
        terminals.first { $0.id == id }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, address1, address2, email, apiKey, terminals
    }

    /// Decodes a merchant on its own, checking only the rules that need no region.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, region: nil)
    }

    /// Decodes a merchant and its terminals, checking the terminals against `region`.
    ///
    /// - Throws: `DecodingError` at the offending field's path.
    init(from decoder: any Decoder, region: Region?) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(.id, checkedBy: FixtureRules.idProblem)
        name = try container.decodeNonEmpty(.name)
        address1 = try container.decodeNonEmpty(.address1)
        address2 = try container.decode(String.self, forKey: .address2)
        email = try container.decodeIfPresent(.email, checkedBy: FixtureRules.emailProblem)
        apiKey = try container.decode(.apiKey, checkedBy: FixtureRules.keyProblem)
        terminals = try container.decodeObjects(forKey: .terminals) { decoder, _ in
            try TerminalProfile(from: decoder, region: region)
        }
        guard !terminals.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .terminals, in: container, debugDescription: "must list at least one terminal")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(address1, forKey: .address1)
        try container.encode(address2, forKey: .address2)
        try container.encode(email, forKey: .email)
        try container.encode(apiKey, forKey: .apiKey)
        try container.encode(terminals, forKey: .terminals)
    }
}
