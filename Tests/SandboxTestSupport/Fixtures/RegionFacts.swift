import Foundation
import Testing

/// A region of `sandbox-data/environments.json`: its id, currency and feature switches, read from
/// the checkout so the tests follow the file.
public struct RegionFacts: Sendable {
    public var id: String
    public var currency: String
    public var dcc: Bool
    public var tips: Bool
    /// Whose API the region's host speaks (`worldline` unless the file says `"vendor"`).
    public var vendor: String

    /// Every region, in file order (none when the file is missing or unreadable).
    public static let all: [RegionFacts] = {
        let file = Paths.sandboxData.appendingPathComponent("environments.json")
        guard let data = try? Data(contentsOf: file),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let regions = object["regions"] as? [[String: Any]]
        else { return [] }
        return regions.compactMap { entry in
            guard let id = entry["id"] as? String else { return nil }
            return RegionFacts(
                id: id, currency: entry["currency"] as? String ?? "", dcc: entry["dcc"] as? Bool ?? false,
                tips: entry["tips"] as? Bool ?? false, vendor: entry["vendor"] as? String ?? "worldline")
        }
    }()

    /// The regions of the seed's TapOnMobile table (Worldline's), in file order: under `sandbox up`
    /// they take the first ports, then come the portal, the wallet and the inbox.
    public static var worldline: [RegionFacts] { all.filter { $0.vendor == "worldline" } }

    /// The facts of `region`; a failed requirement when the file has no such region.
    public static func load(_ region: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> RegionFacts {
        try #require(!all.isEmpty, "environments.json is missing", sourceLocation: sourceLocation)
        return try #require(all.first { $0.id == region }, "no region \(region)", sourceLocation: sourceLocation)
    }
}
