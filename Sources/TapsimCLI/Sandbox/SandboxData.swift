import CommandLineSupport
import Foundation
import SimulatedReader

/// What `tapsim` reads from `sandbox-data/`: the back-office key and terminals of a region
/// (`merchants.json`); the test cards (`cards.json`) are read by `CardCatalogue`.
///
/// Found the way every executable finds it: `--sandbox-data`, `$TAPSANDBOX_HOME/sandbox-data`,
/// `./sandbox-data`, or beside the executable (see `ResourceLocator`).
struct SandboxData: Sendable {
    struct Terminal: Sendable {
        var id: String
        var registerOptions: [String]
        var refundAvailable: Bool
        var reversalAvailable: Bool

        func allows(_ method: String) -> Bool { registerOptions.contains(method) }
    }

    struct Merchant: Sendable {
        var id: String
        /// The account's API key on a MONEI region (`pk_test_…`); nil elsewhere.
        var apiKey: String?
    }

    struct Region: Sendable {
        var backOfficeKey: String
        var terminals: [Terminal]
        var merchants: [Merchant]
        /// The `appKey`s of the region's partner apps (PagBank's Tap On), in file order.
        var partnerAppKeys: [String]
    }

    var directory: URL
    var regions: [String: Region]

    static func locate(explicit: String?) throws(UsageError) -> SandboxData {
        let directory = try ResourceLocator.directory("sandbox-data", explicit: explicit)
        let file = directory.appendingPathComponent("merchants.json")
        guard let data = FileManager.default.contents(atPath: file.path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let regions = object["regions"] as? [String: [String: Any]]
        else { throw UsageError("cannot read \(file.path)") }
        var parsed: [String: Region] = [:]
        for (id, region) in regions {
            guard let key = region["backOfficeKey"] as? String else { continue }
            var terminals: [Terminal] = []
            var merchants: [Merchant] = []
            for merchant in region["merchants"] as? [[String: Any]] ?? [] {
                if let merchantId = merchant["id"] as? String {
                    merchants.append(Merchant(id: merchantId, apiKey: merchant["apiKey"] as? String))
                }
                for terminal in merchant["terminals"] as? [[String: Any]] ?? [] {
                    guard let terminalId = terminal["id"] as? String else { continue }
                    terminals.append(
                        Terminal(
                            id: terminalId,
                            registerOptions: terminal["registerOptions"] as? [String] ?? ["portal", "registrationCode"],
                            refundAvailable: terminal["refundAvailable"] as? Bool ?? false,
                            reversalAvailable: terminal["reversalAvailable"] as? Bool ?? false))
                }
            }
            let partners = (region["partners"] as? [[String: Any]] ?? []).compactMap { $0["appKey"] as? String }
            parsed[id] = Region(backOfficeKey: key, terminals: terminals, merchants: merchants, partnerAppKeys: partners)
        }
        return SandboxData(directory: directory, regions: parsed)
    }

    /// `cards.json` beside `merchants.json`, checked.
    func cards() throws(UsageError) -> CardCatalogue {
        let file = directory.appendingPathComponent("cards.json")
        do {
            return try CardCatalogue.load(from: file)
        } catch {
            throw UsageError("\(file.path): \(error)")
        }
    }

    /// The card called `name`, or the first plain one issued in `country` (PIN-verified with `pin`).
    func card(named name: String?, country: String, pin: Bool = false) throws(UsageError) -> TestCard {
        let catalogue = try cards()
        guard let name else {
            guard let card = catalogue.defaultCard(forCountry: country, pin: pin) else {
                throw UsageError("\(directory.path)/cards.json has no card without flags to tap by default: name one with --card")
            }
            return card
        }
        guard let card = catalogue.card(named: name) else {
            throw UsageError("--card must be one of \(catalogue.names.joined(separator: ", ")), not '\(name)'")
        }
        return card
    }

    func region(_ id: String) throws(UsageError) -> Region {
        guard let region = regions[id] else {
            throw UsageError("\(directory.path)/merchants.json has no region \(id)")
        }
        return region
    }
}
