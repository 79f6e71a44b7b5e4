/// One of the four deployments every region has, from the first test stage to live.
///
/// `uat` is the acquirer's internal acceptance stage (the seed documents no host for it),
/// `sandbox` is where app teams integrate, `pre` is pre-production and `prod` is live. The
/// raw value is the JSON key under a region's `flavours` and the prefix of the matching
/// case of the seed's `Environments` enum (`sandboxEU`, `prePayone`).
public enum Flavour: String, CaseIterable, Codable, Sendable {
    case uat
    case sandbox
    case pre
    case prod
}

/// What one flavour of a region is: where it lives, what the SDK calls it, how long a login lasts.
///
/// ```json
/// { "hostname": "sandbox-wl-emea.softpos.eu", "sdkEnvironment": "sandboxEU", "sessionLengthSeconds": 600 }
/// ```
public struct FlavourSettings: Codable, Sendable, Equatable {
    /// The documented host name of the real backend, or nil where the seed gives none.
    public var hostname: String?
    /// The name of the matching case of the seed SDK's `Environments` enum, e.g. `sandboxEU`.
    public var sdkEnvironment: String
    /// How long a session token lives after login, in seconds.
    public var sessionLengthSeconds: Int

    public init(hostname: String?, sdkEnvironment: String, sessionLengthSeconds: Int) {
        self.hostname = hostname
        self.sdkEnvironment = sdkEnvironment
        self.sessionLengthSeconds = sessionLengthSeconds
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case hostname, sdkEnvironment, sessionLengthSeconds
    }

    /// Decodes and checks one flavour; the flavour it belongs to is the last key of the path.
    ///
    /// - Throws: `DecodingError` for a missing or mistyped field, an unknown field, a host
    ///   name that is not a DNS name, an enum case name that does not start with the flavour,
    ///   or a session length that is not a positive whole number of seconds.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.contains(.hostname) else {
            throw DecodingError.keyNotFound(
                CodingKeys.hostname,
                .init(codingPath: decoder.codingPath, debugDescription: "hostname is required; write null for none"))
        }
        hostname = try container.decodeIfPresent(String.self, forKey: .hostname)
        if let hostname, let problem = Hostname.problem(with: hostname) {
            throw DecodingError.dataCorruptedError(
                forKey: .hostname, in: container,
                debugDescription: "\"\(hostname)\" is not a valid DNS name: \(problem)")
        }
        sdkEnvironment = try container.decode(String.self, forKey: .sdkEnvironment)
        if let flavour = decoder.codingPath.last.flatMap({ Flavour(rawValue: $0.stringValue) }),
           !Self.isCaseName(sdkEnvironment, of: flavour) {
            throw DecodingError.dataCorruptedError(
                forKey: .sdkEnvironment, in: container,
                debugDescription: "\"\(sdkEnvironment)\" is not an Environments case name for \(flavour.rawValue) (expected \(flavour.rawValue) followed by the region, e.g. \(flavour.rawValue)EU)")
        }
        sessionLengthSeconds = try container.decodeWholeNumber(forKey: .sessionLengthSeconds)
        guard sessionLengthSeconds > 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .sessionLengthSeconds, in: container,
                debugDescription: "must be a positive number of seconds")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hostname, forKey: .hostname)  // null stays visible: "the seed gives none"
        try container.encode(sdkEnvironment, forKey: .sdkEnvironment)
        try container.encode(sessionLengthSeconds, forKey: .sessionLengthSeconds)
    }

    /// Whether `name` reads like a seed enum case of `flavour`: the flavour, then a capital and letters/digits.
    static func isCaseName(_ name: String, of flavour: Flavour) -> Bool {
        guard name.hasPrefix(flavour.rawValue) else { return false }
        let rest = name.dropFirst(flavour.rawValue.count)
        guard let first = rest.first, first.isASCII, first.isUppercase else { return false }
        return rest.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}

/// The four flavours of a region, each required.
///
/// A struct rather than a dictionary so that a missing flavour is a missing key
/// (`regions[0].flavours.prod: missing`) and an unknown one (`beta`) is refused.
public struct Flavours: Codable, Sendable, Equatable {
    public var uat: FlavourSettings
    public var sandbox: FlavourSettings
    public var pre: FlavourSettings
    public var prod: FlavourSettings

    public init(uat: FlavourSettings, sandbox: FlavourSettings, pre: FlavourSettings, prod: FlavourSettings) {
        self.uat = uat
        self.sandbox = sandbox
        self.pre = pre
        self.prod = prod
    }

    /// The settings of one flavour.
    public subscript(flavour: Flavour) -> FlavourSettings {
        get {
            switch flavour {
            case .uat: uat
            case .sandbox: sandbox
            case .pre: pre
            case .prod: prod
            }
        }
        set {
            switch flavour {
            case .uat: uat = newValue
            case .sandbox: sandbox = newValue
            case .pre: pre = newValue
            case .prod: prod = newValue
            }
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case uat, sandbox, pre, prod
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uat = try container.decode(FlavourSettings.self, forKey: .uat)
        sandbox = try container.decode(FlavourSettings.self, forKey: .sandbox)
        pre = try container.decode(FlavourSettings.self, forKey: .pre)
        prod = try container.decode(FlavourSettings.self, forKey: .prod)
    }
}
