/// Where `sandbox up` puts each service, as offsets from its base port (8100 by default).
///
/// The Worldline regions come first in catalogue order, then the portal, the wallet and the
/// webhook inbox, then the regions of other vendors (MONEI …) in catalogue order. So adding a
/// vendor region never moves a port a team already uses: EU 8100 … MBANK 8108, portal 8109,
/// wallet 8110, inbox 8111, MONEI 8112.
///
/// ```swift
/// let ports = catalogue.ports
/// ports.offset(of: "MONEI")   // 12
/// ports.portal                // 9
/// ```
public struct PortLayout: Sendable, Equatable {
    /// Each region's offset by id.
    public let regionOffsets: [String: Int]
    public let portal: Int
    public let wallet: Int
    public let inbox: Int
    /// How many consecutive ports the layout takes.
    public let count: Int

    public init(regions: [Region]) {
        let worldline = regions.filter { $0.vendor == .worldline }
        let others = regions.filter { $0.vendor != .worldline }
        var offsets: [String: Int] = [:]
        for (index, region) in worldline.enumerated() { offsets[region.id] = index }
        portal = worldline.count
        wallet = worldline.count + 1
        inbox = worldline.count + 2
        for (index, region) in others.enumerated() { offsets[region.id] = worldline.count + 3 + index }
        regionOffsets = offsets
        count = regions.count + 3
    }

    /// The offset of a region of the catalogue, or nil for an unknown id.
    public func offset(of region: String) -> Int? { regionOffsets[region] }
}

extension EnvironmentCatalogue {
    /// The port layout of `sandbox up` for these regions.
    public var ports: PortLayout { PortLayout(regions: regions) }
}
