import Foundation

/// Every region's merchants and terminals, as read from `sandbox-data/merchants.json` and the
/// tester's own `sandbox-data/local/*.json`.
///
/// `merchants.json` must give every region of the ``EnvironmentCatalogue``; local files add
/// merchants to any regions they name, in file-name order. Loading checks every terminal
/// against its region (limits, tips, APMs, BLIK) and refuses an id or key that is already
/// taken, so a local file can never quietly replace a shipped merchant. A broken file stops
/// the load with one ``CatalogueError`` line:
///
/// ```text
/// merchants.json: regions.EU.merchants[0].terminals[2].limitAmount: must not exceed the region's maximum 1000000
/// local/shop.json: regions.EU.merchants[0].id: merchant id "EU-M01" is already used at merchants.json: regions.EU.merchants[0].id
/// ```
///
/// ```swift
/// let environments = try EnvironmentCatalogue.load(contentsOf: data.appending(path: "environments.json"))
/// let merchants = try MerchantCatalogue.load(directory: data, environments: environments)
/// let eu = merchants.region("EU")!
/// let (merchant, terminal) = eu.terminal("EU-T0101")!
/// let info = TerminalInfo(terminal: terminal, merchant: merchant, region: environments.region("EU")!)
/// ```
public struct MerchantCatalogue: Sendable, Equatable {
    /// Each region's fixtures by region id.
    public private(set) var regions: [String: RegionFixtures]

    /// The file the shipped fixtures live in, inside the data directory.
    public static let fileName = "merchants.json"
    /// The folder, inside the data directory, whose `*.json` files are merged over the shipped file.
    public static let localFolderName = "local"

    /// The fixtures of the region with this id (exact, upper case), or nil.
    public func region(_ id: String) -> RegionFixtures? {
        regions[id]
    }

    /// Reads `merchants.json` and then every `local/*.json` of a data directory.
    ///
    /// Local files are taken in file-name order (byte order, so `10-…` sorts before `9-…`);
    /// files whose names start with a dot and files not ending in `.json` are skipped. A
    /// missing `local/` folder is the same as an empty one.
    ///
    /// - Parameters:
    ///   - directory: the data directory, normally `sandbox-data/`.
    ///   - environments: the regions to check the fixtures against.
    /// - Returns: the merged, checked fixtures.
    /// - Throws: ``CatalogueError`` naming `merchants.json` or `local/<name>.json`:
    ///   `.unreadable` when a file cannot be read, otherwise as ``decode(_:file:overlays:environments:)``.
    public static func load(directory: URL, environments: EnvironmentCatalogue) throws(CatalogueError) -> MerchantCatalogue {
        let shipped = try DataFile.read(directory.appendingPathComponent(fileName), as: fileName)
        let localFolder = directory.appendingPathComponent(localFolderName, isDirectory: true)
        var overlays: [(file: String, data: Data)] = []
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: localFolder.path, isDirectory: &isFolder), isFolder.boolValue {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: localFolder.path)
            } catch {
                throw CatalogueError(
                    code: .unreadable, file: localFolderName, path: "(root)",
                    reason: "cannot list \(localFolder.path): \(DataFile.failure(error))")
            }
            let files = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
                .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            for name in files {
                let file = "\(localFolderName)/\(name)"
                overlays.append((file, try DataFile.read(localFolder.appendingPathComponent(name), as: file)))
            }
        }
        return try decode(shipped, file: fileName, overlays: overlays, environments: environments)
    }

    /// Checks a fixture document and the local documents merged over it.
    ///
    /// - Parameters:
    ///   - data: the shipped document; it must give every region of `environments`.
    ///   - file: the name to put in front of its error messages.
    ///   - overlays: local documents in merge order, each with the name its messages carry
    ///     (`local/shop.json`); each may give any of the regions.
    ///   - environments: the regions to check against.
    /// - Returns: the merged fixtures.
    /// - Throws: ``CatalogueError`` for the first problem: not JSON; a missing, mistyped or
    ///   unknown field; a value that breaks a rule; an unknown or (in the shipped file) missing
    ///   region; a merchant id, terminal id or key that an earlier place already uses.
    public static func decode(
        _ data: Data, file: String = fileName, overlays: [(file: String, data: Data)] = [],
        environments: EnvironmentCatalogue
    ) throws(CatalogueError) -> MerchantCatalogue {
        var registry = FixtureRegistry()
        let shipped = try FixtureFile.decode(data, file: file, environments: environments, shippedBackOfficeKeys: nil)
        try registry.register(shipped, file: file, ownsBackOfficeKeys: true)
        var regions = Dictionary(uniqueKeysWithValues: shipped.regions.map { ($0.id, $0.fixtures) })

        let backOfficeKeys = regions.mapValues(\.backOfficeKey)
        for overlay in overlays {
            let local = try FixtureFile.decode(
                overlay.data, file: overlay.file, environments: environments, shippedBackOfficeKeys: backOfficeKeys)
            try registry.register(local, file: overlay.file, ownsBackOfficeKeys: false)
            for (id, fixtures) in local.regions {
                // The shipped file gives every region, so a local region always has one to join.
                if regions[id] != nil {
                    regions[id]?.merchants += fixtures.merchants
                    regions[id]?.partners += fixtures.partners
                } else {
                    regions[id] = fixtures
                }
            }
        }
        for (id, fixtures) in regions.sorted(by: { $0.key < $1.key }) {
            if let (path, seller) = fixtures.unknownSeller() {
                throw CatalogueError(
                    code: .invalid, file: file, path: "regions.\(id).\(path)", reason: "\"\(seller)\" is no merchant of the region")
            }
        }
        return MerchantCatalogue(regions: regions)
    }}
