import Foundation
import Testing

/// `sandbox-data/merchants.json` as the suites read it: every region's back-office key, its
/// merchants and their terminals with the switches tests pick them by. Nothing is hard-coded, so
/// the fixtures may change under the tests.
public struct MerchantsFile: Decodable, Sendable {
    public var regions: [String: RegionFixture]

    /// The checkout's file, decoded once (nil when it is missing or does not decode).
    public static let shipped: MerchantsFile? = try? decode()

    /// The checkout's file; a failed requirement when it is missing.
    public static func load(sourceLocation: SourceLocation = #_sourceLocation) throws -> MerchantsFile {
        _ = try #require(
            try? Data(contentsOf: file), "sandbox-data/merchants.json is missing", sourceLocation: sourceLocation)
        return try decode()
    }

    /// The fixtures of region `id`; a failed requirement when the file has none.
    public func region(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> RegionFixture {
        try #require(regions[id], "merchants.json has no region \(id)", sourceLocation: sourceLocation)
    }

    private static var file: URL { Paths.sandboxData.appendingPathComponent("merchants.json") }

    private static func decode() throws -> MerchantsFile {
        try JSONDecoder().decode(MerchantsFile.self, from: try Data(contentsOf: file))
    }
}

/// One region of merchants.json.
public struct RegionFixture: Decodable, Sendable {
    public var backOfficeKey: String
    public var merchants: [MerchantFixture]

    public var terminals: [TerminalFixture] { merchants.flatMap(\.terminals) }

    public func merchant(owning terminal: String) -> MerchantFixture? {
        merchants.first { $0.terminals.contains { $0.id == terminal } }
    }

    /// The first merchant with `count` terminals that allow `option`.
    public func merchant(
        with count: Int, allowing option: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> MerchantFixture {
        try #require(
            merchants.first { $0.terminals(allowing: option).count >= count },
            "merchants.json has no merchant with \(count) terminals allowing \(option)", sourceLocation: sourceLocation)
    }
}

/// One merchant of merchants.json.
public struct MerchantFixture: Decodable, Sendable {
    public var id: String
    public var name: String
    public var address1: String
    /// The owner's address, which a token e-mail may be sent to.
    public var email: String?
    public var apiKey: String
    public var terminals: [TerminalFixture]

    public func terminals(allowing option: String) -> [TerminalFixture] { terminals.filter { $0.allows(option) } }
}

/// One terminal of merchants.json.
public struct TerminalFixture: Decodable, Sendable {
    public struct Tips: Decodable, Sendable { public var enabled: Bool }
    public struct Reference: Decodable, Sendable {
        public var enabled: Bool
        public var pattern: String?
    }

    public var id: String
    public var autoLogin: Bool
    public var registerOptions: [String]?
    public var refundAvailable: Bool
    public var reversalAvailable: Bool
    public var limitAmount: Int
    public var permittedCountries: [String]?
    public var tips: Tips
    public var reference: Reference

    /// Whether the terminal may be registered by `option` (`portal` or `registrationCode`).
    public func allows(_ option: String) -> Bool { registerOptions?.contains(option) ?? true }
}
