import Foundation

/// Every region the sandbox can play, as read from `sandbox-data/environments.json`.
///
/// The file is data a tester edits, so loading it checks everything and refuses a broken
/// file with one precise line (see ``CatalogueError``) instead of starting a host that
/// behaves oddly later.
///
/// ```swift
/// let catalogue = try EnvironmentCatalogue.load(contentsOf: dataDirectory.appending(path: "environments.json"))
/// let anz = catalogue.region("ANZ")!
/// anz.view(flavour: .prod).sessionLengthSeconds   // 28800
/// ```
public struct EnvironmentCatalogue: Codable, Sendable, Equatable {
    /// The regions in file order.
    public var regions: [Region]

    public init(regions: [Region]) {
        self.regions = regions
    }

    /// The region with this id (exact, upper case), or nil.
    public func region(_ id: String) -> Region? {
        regions.first { $0.id == id }
    }

    /// Reads and checks a catalogue file.
    ///
    /// - Parameter url: a file URL, normally `sandbox-data/environments.json`.
    /// - Returns: the checked catalogue.
    /// - Throws: ``CatalogueError`` naming the file by its last path component: `.unreadable`
    ///   when the file cannot be read, otherwise as ``decode(_:file:)``.
    public static func load(contentsOf url: URL) throws(CatalogueError) -> EnvironmentCatalogue {
        try decode(DataFile.read(url), file: url.lastPathComponent)
    }

    /// Checks a catalogue document.
    ///
    /// - Parameters:
    ///   - data: the JSON document.
    ///   - file: the name to put in front of an error message, e.g. `environments.json`.
    /// - Returns: the checked catalogue.
    /// - Throws: ``CatalogueError`` for the first problem found: not JSON, a missing, mistyped
    ///   or unknown field, or a value that breaks a rule.
    public static func decode(_ data: Data, file: String) throws(CatalogueError) -> EnvironmentCatalogue {
        do {
            return try JSONDecoder().decode(EnvironmentCatalogue.self, from: data)
        } catch let error as DecodingError {
            throw CatalogueError(error, file: file, data: data)
        } catch {
            // Decodable code only throws DecodingError; keep any surprise readable anyway.
            throw CatalogueError(code: .invalid, file: file, path: "(root)", reason: "\(error)")
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case regions
    }

    /// Decodes the regions, refusing an empty list and a region id used twice.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        regions = try container.decode([Region].self, forKey: .regions)
        guard !regions.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .regions, in: container, debugDescription: "must list at least one region")
        }
        for (index, region) in regions.enumerated() where regions[..<index].contains(where: { $0.id == region.id }) {
            throw DecodingError.invalid(
                "duplicate region id \"\(region.id)\"",
                at: decoder.codingPath + [CodingKeys.regions, FieldKey(intValue: index), Region.CodingKeys.id])
        }
    }}
