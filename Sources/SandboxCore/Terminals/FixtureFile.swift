import Foundation

/// One fixture document (`merchants.json` or a `local/*.json`), checked but not yet merged.
///
/// The environment catalogue reaches the decoder through `userInfo`, because the regions
/// object is keyed by region id and each region's terminals are checked against that region.
struct FixtureFile {
    /// The regions the document gives, in the environment catalogue's order.
    var regions: [(id: String, fixtures: RegionFixtures)]

    /// What decoding needs besides the JSON.
    struct Context {
        let environments: EnvironmentCatalogue
        /// nil for the shipped file; for a local file, each region's back-office key from the shipped file.
        let shippedBackOfficeKeys: [String: String]?
    }

    static let contextKey = CodingUserInfoKey(rawValue: "SandboxCore.FixtureFile.Context")!

    /// Decodes and checks one document.
    ///
    /// - Throws: ``CatalogueError`` in the `file: path: reason` form.
    static func decode(
        _ data: Data, file: String, environments: EnvironmentCatalogue, shippedBackOfficeKeys: [String: String]?
    ) throws(CatalogueError) -> FixtureFile {
        let decoder = JSONDecoder()
        decoder.userInfo[contextKey] = Context(environments: environments, shippedBackOfficeKeys: shippedBackOfficeKeys)
        do {
            return try decoder.decode(FixtureFile.self, from: data)
        } catch let error as DecodingError {
            throw CatalogueError(error, file: file, data: data)
        } catch {
            throw CatalogueError(code: .invalid, file: file, path: "(root)", reason: "\(error)")
        }
    }
}

extension FixtureFile: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case regions
    }

    /// Decodes `{"regions": {"EU": {…}, …}}`: unknown region ids first (in name order), then, in
    /// the shipped file, any catalogue region it leaves out, then each region in catalogue order.
    init(from decoder: any Decoder) throws {
        guard let context = decoder.userInfo[Self.contextKey] as? Context else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "fixture files decode through MerchantCatalogue"))
        }
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let byID = try container.objectDecoder(forKey: .regions).container(keyedBy: FieldKey.self)

        let known = context.environments.regions.map(\.id)
        let unknown = byID.allKeys.filter { !known.contains($0.stringValue) }
        if let first = unknown.min(by: { $0.stringValue < $1.stringValue }) {
            throw DecodingError.invalid(
                "unknown region (expected one of \(known.joined(separator: ", ")))", at: byID.codingPath + [first])
        }

        regions = []
        for region in context.environments.regions {
            let key = FieldKey(stringValue: region.id)
            guard byID.contains(key) else {
                if context.shippedBackOfficeKeys == nil {
                    throw DecodingError.keyNotFound(key, .init(codingPath: byID.codingPath, debugDescription: "missing"))
                }
                continue
            }
            let fixtures = try RegionFixtures(
                from: byID.objectDecoder(forKey: key), region: region,
                shippedBackOfficeKey: context.shippedBackOfficeKeys?[region.id])
            regions.append((region.id, fixtures))
        }
    }
}

/// Where each merchant id, terminal id and key was first seen, across all fixture files.
///
/// Keys share one namespace: a string that opens the back office must not also be some
/// merchant's API key, or a request could not say who it is.
struct FixtureRegistry {
    private var merchantIDs: [String: String] = [:]
    private var terminalIDs: [String: String] = [:]
    private var keys: [String: String] = [:]

    /// Records every id and key of `document`, refusing one seen before.
    ///
    /// - Parameters:
    ///   - document: a decoded file.
    ///   - file: its name in messages.
    ///   - ownsBackOfficeKeys: true for the shipped file; local files reuse its keys.
    /// - Throws: ``CatalogueError`` at the second place an id or key appears.
    mutating func register(_ document: FixtureFile, file: String, ownsBackOfficeKeys: Bool) throws(CatalogueError) {
        for (region, fixtures) in document.regions {
            if ownsBackOfficeKeys {
                try Self.claim(fixtures.backOfficeKey, as: "key", in: &keys, file: file, path: "regions.\(region).backOfficeKey")
            }
            for (m, merchant) in fixtures.merchants.enumerated() {
                let merchantPath = "regions.\(region).merchants[\(m)]"
                try Self.claim(merchant.id, as: "merchant id", in: &merchantIDs, file: file, path: "\(merchantPath).id")
                try Self.claim(merchant.apiKey, as: "key", in: &keys, file: file, path: "\(merchantPath).apiKey")
                for (t, terminal) in merchant.terminals.enumerated() {
                    try Self.claim(
                        terminal.id, as: "terminal id", in: &terminalIDs, file: file, path: "\(merchantPath).terminals[\(t)].id")
                }
            }
        }
    }

    private static func claim(
        _ value: String, as kind: String, in seen: inout [String: String], file: String, path: String
    ) throws(CatalogueError) {
        if let first = seen[value] {
            throw CatalogueError(
                code: .invalid, file: file, path: path, reason: "\(kind) \"\(value)\" is already used at \(first)")
        }
        seen[value] = "\(file): \(path)"
    }
}
