import Foundation

/// The URLs of a running `sandbox up`, as it writes them to `<data-dir>/endpoints.json`.
///
/// One type for the writer (`sandbox up`) and every reader (`tapsim`, `webhooks`, `portal-sim
/// --endpoints`, the SDK), so a field is named once.
///
/// ```swift
/// let endpoints = try EndpointsFile.load(from: URL(fileURLWithPath: EndpointsFile.defaultPath))
/// let eu = endpoints.environments["EU"]                     // "http://127.0.0.1:8100"
/// ```
public struct EndpointsFile: Codable, Equatable, Sendable {
    /// Where the tools look when they are not told: `.sandbox/endpoints.json` in the working directory.
    public static let defaultPath = ".sandbox/endpoints.json"

    public var portal: String?
    public var wallet: String?
    /// The webhook inbox every fixture merchant's events go to.
    public var webhooks: String?
    /// Region id of the catalogue → base URL of its host.
    public var environments: [String: String]
    /// The key sandbox control needs (`X-Sandbox-Control-Key`) when the sandbox listens beyond
    /// loopback; absent when control is open.
    public var controlKey: String?

    public init(portal: String?, wallet: String?, webhooks: String?, environments: [String: String], controlKey: String? = nil) {
        self.portal = portal
        self.wallet = wallet
        self.webhooks = webhooks
        self.environments = environments
        self.controlKey = controlKey
    }

    /// Why a file could not be read as an endpoints file.
    public enum LoadError: Error, Equatable, CustomStringConvertible {
        /// There is no readable file at this path.
        case unreadable(URL)
        /// The file is not a JSON object with an `"environments"` object of strings.
        case invalid(URL)

        /// The message the command-line tools print.
        public var description: String {
            switch self {
            case .unreadable(let file): "cannot read \(file.path)"
            case .invalid(let file): "\(file.path) is not an endpoints file (written by 'sandbox up')"
            }
        }
    }

    private enum CodingKeys: String, CodingKey { case portal, wallet, webhooks, environments, controlKey }

    /// Only `environments` is required; a service URL of the wrong type reads as absent, as the
    /// readers have always taken it (a reader needs the hosts, not every service).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        environments = try container.decode([String: String].self, forKey: .environments)
        portal = (try? container.decodeIfPresent(String.self, forKey: .portal)) ?? nil
        wallet = (try? container.decodeIfPresent(String.self, forKey: .wallet)) ?? nil
        webhooks = (try? container.decodeIfPresent(String.self, forKey: .webhooks)) ?? nil
        controlKey = (try? container.decodeIfPresent(String.self, forKey: .controlKey)) ?? nil
    }

    /// Reads and decodes `file`.
    ///
    /// - Throws: ``LoadError/unreadable(_:)`` when there is no readable file,
    ///   ``LoadError/invalid(_:)`` when it is not an endpoints file.
    public static func load(from file: URL) throws(LoadError) -> EndpointsFile {
        guard let data = FileManager.default.contents(atPath: file.path) else { throw .unreadable(file) }
        guard let endpoints = try? JSONDecoder().decode(EndpointsFile.self, from: data) else { throw .invalid(file) }
        return endpoints
    }

    /// The region id as the file spells it, matched case-insensitively, or nil.
    public func region(matching name: String) -> String? {
        environments.keys.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame })
    }

    /// The file's bytes: compact JSON with sorted keys and slashes as they are, the encoding of
    /// every JSON body the services send.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes the file atomically, so a reader never sees half of it.
    public func write(to file: URL) throws {
        try encoded().write(to: file, options: .atomic)
    }
}
