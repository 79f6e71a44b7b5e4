import LockedValue
import Foundation
import SandboxWire

/// The environments the SDK can talk to: the seed's cases, plus mBank's, Payone Austria's and
/// PagBank's (whose Tap On SDK, `TapOnPartner`, runs over this SDK on the PagBank host).
///
/// Each case names a region (one sandbox host) and a flavour. The seed's `…Payone` cases are
/// Payone Germany (`PAYONE_DE`); Payone Austria has its own `…PayoneAT` cases here, because the
/// seed lists its hostnames under the same `sandboxPayone`/`prePayone`/`prodPayone` names.
///
/// ```swift
/// let environment = Environments.sandboxMBANK
/// environment.region    // "MBANK"
/// environment.flavour   // "sandbox"
/// ```
public enum Environments: String, CaseIterable, Sendable, Codable {
    case uatEU, sandboxEU, preEU, prodEU
    case uatANZ, sandboxANZ, preANZ, prodANZ
    case uatPayone, sandboxPayone, prePayone, prodPayone
    case uatPayoneAT, sandboxPayoneAT, prePayoneAT, prodPayoneAT
    case uatPayPhone, sandboxPayPhone, prePayPhone, prodPayPhone
    case uatCAWL, sandboxCAWL, preCAWL, prodCAWL
    case uatOPP, sandboxOPP, preOPP, prodOPP
    case uatING, sandboxING, preING, prodING
    case uatMBANK, sandboxMBANK, preMBANK, prodMBANK
    case uatPAGBANK, sandboxPAGBANK, prePAGBANK, prodPAGBANK

    /// The sandbox's region ids in catalogue order (`sandbox-data/environments.json`); region
    /// *i* listens on `8100 + i` when `sandbox up` runs with its default base port.
    public static let regions = DefaultPorts.worldlineRegions

    /// The regions of other vendors the SDK talks to, by their offset from the base port: after the
    /// portal, wallet and inbox (8109 … 8111) and MONEI (8112), as `sandbox up` lays them out.
    public static let vendorRegionOffsets = DefaultPorts.vendorRegionOffsets.filter { $0.key == "PAGBANK" }

    /// The flavours, in the order the cases list them.
    public static let flavours = ["uat", "sandbox", "pre", "prod"]

    /// The region id of the sandbox host (`EU`, `PAYONE_DE`, `MBANK` …).
    public var region: String {
        let name = rawValue
        for (suffix, region) in Self.suffixes where name.hasSuffix(suffix) { return region }
        return "EU"
    }

    /// `uat`, `sandbox`, `pre` or `prod`.
    public var flavour: String {
        Self.flavours.first { rawValue.hasPrefix($0) } ?? "sandbox"
    }

    /// The environment of a region and flavour, if there is one.
    ///
    /// - Parameters:
    ///   - region: A region id such as `MBANK`.
    ///   - flavour: `uat`, `sandbox`, `pre` or `prod`.
    public init?(region: String, flavour: String) {
        guard let found = Self.allCases.first(where: { $0.region == region && $0.flavour == flavour }) else { return nil }
        self = found
    }

    /// The country a device in this region normally stands in (the simulated location's default).
    public var homeCountry: String {
        switch region {
        case "ANZ": "AU"
        case "PAYONE_DE": "DE"
        case "PAYONE_AT": "AT"
        case "PAYPHONE": "CZ"
        case "CAWL": "FR"
        case "OPP": "NL"
        case "ING": "IT"
        case "MBANK": "PL"
        case "PAGBANK": "BR"
        default: "BE"
        }
    }

    /// Case-name suffix → region id; `PayoneAT` before `Payone` so the longer one wins.
    private static let suffixes: [(String, String)] = [
        ("PayoneAT", "PAYONE_AT"), ("Payone", "PAYONE_DE"), ("PayPhone", "PAYPHONE"), ("ANZ", "ANZ"), ("CAWL", "CAWL"),
        ("OPP", "OPP"), ("ING", "ING"), ("MBANK", "MBANK"), ("PAGBANK", "PAGBANK"), ("EU", "EU"),
    ]

    private static let selected = LockedValueBox(Environments.sandboxEU)

    /// The environment of the last successful `initialization(environment:…)` in this process
    /// (`sandboxEU` before any).
    public internal(set) static var current: Environments {
        get { selected.withLockedValue { $0 } }
        set { selected.withLockedValue { $0 = newValue } }
    }
}
