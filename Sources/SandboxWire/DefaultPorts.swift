/// Where `sandbox up` puts each service with its default base port (8100), for the device side,
/// which has no catalogue: the Worldline regions in catalogue order on 8100 + i, then the portal,
/// the wallet and the inbox, then the other vendors' regions. `SandboxCore.PortLayout`, read from
/// `sandbox-data/environments.json`, is the source; a test keeps the two alike.
///
/// ```swift
/// DefaultPorts.worldlineRegions.firstIndex(of: "MBANK")   // 8: MBANK listens on 8108
/// DefaultPorts.walletOffset                                // 10: the wallet on 8110
/// ```
public enum DefaultPorts {
    public static let basePort = 8100
    public static let worldlineRegions = ["EU", "ANZ", "PAYONE_DE", "PAYONE_AT", "PAYPHONE", "CAWL", "OPP", "ING", "MBANK"]
    public static let portalOffset = 9
    public static let walletOffset = 10
    public static let inboxOffset = 11
    /// The other vendors' regions, by their offset from the base port.
    public static let vendorRegionOffsets = ["MONEI": 12, "PAGBANK": 13, "GEOPAGOS": 14]
}
