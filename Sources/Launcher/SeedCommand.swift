import CommandLineSupport
import Foundation
import SandboxControl
import SandboxHTTP
import SandboxHTTPClient
import SandboxTesting
import SandboxWire

/// `sandbox seed FILE [--data-dir DIR]` and `sandbox up --seed FILE`: a seed file
/// (`sandbox-data/seeds/`) applied to a running sandbox whole or not at all. Each region's part goes
/// to its host (`POST /_sandbox/seed`), checked on every host first (`?dryRun=true`) so that a part
/// one host refuses leaves the others untouched; then the devices' folders are written, where
/// `tapsim` and the SDKs find them.
public enum SeedCommand {
    public static let description = CommandDescription(
        name: "sandbox seed",
        summary: """
            Applies a seed file to a running sandbox: devices registered (and logged in) on named terminals with their device \
            folders, payments in the terminals' history, merchants' webhook endpoints, the wallet's BLIK customers and standing rules. A seed is applied whole or refused whole, \
            naming its first bad field. FILE is a path, or the name of a seed in sandbox-data/seeds/. USAGE: sandbox seed FILE.
            """,
        options: [.value("data-dir", "DIR", "The data directory of the running sandbox ('sandbox up --data-dir').", default: ".sandbox")],
        examples: ["sandbox seed logged-in-eu"])

    /// A seed file read and checked for its shape: what each region's host is sent, and the devices' folders.
    struct Plan {
        /// Each region's part as the file wrote it, by region id.
        let parts: [(region: String, body: [UInt8])]
        /// The wallet's part as the file wrote it.
        var wallet: [UInt8]? = nil
        let seed: SandboxSeed
        let file: String
    }

    static func main(_ arguments: ArraySlice<String>) -> Never {
        var rest = arguments
        var path: String?
        if let first = rest.first, !first.hasPrefix("--") {
            path = first
            rest = rest.dropFirst()
        }
        CommandMain.run(description, arguments: rest) { options in
            guard let path else { throw UsageError("name the seed file: sandbox seed FILE") }
            let directory = URL(fileURLWithPath: options.string("data-dir") ?? ".sandbox")
            let plan = try read(path, sandboxData: try? ResourceLocator.directory("sandbox-data", explicit: nil))
            let sandbox = try RunningSandbox(options)
            for line in try apply(plan, to: sandbox, dataDirectory: directory) { CommandMain.say(line) }
        }
    }

    /// Reads a seed file, or the seed of that name in `sandbox-data/seeds/` (`logged-in-eu`); a file
    /// that is no seed is a ``UsageError`` naming the path of its first bad field.
    static func read(_ given: String, sandboxData: URL?) throws -> Plan {
        var path = given
        if !FileManager.default.fileExists(atPath: given), !given.contains("/"), let sandboxData {
            let named = sandboxData.appendingPathComponent("seeds").appendingPathComponent(given.hasSuffix(".json") ? given : given + ".json")
            if FileManager.default.fileExists(atPath: named.path) { path = named.path }
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw UsageError("cannot read the seed file \(path): \(error.localizedDescription)")
        }
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch {
            throw UsageError("\(path) is not JSON: \(error.localizedDescription)")
        }
        if let field = SandboxSeed.unknownField(in: json) {
            throw UsageError("\(path): \(field) is not a field of a seed (sandbox-data/seeds/seed.schema.json)")
        }
        let seed: SandboxSeed
        do { seed = try JSONDecoder().decode(SandboxSeed.self, from: data) } catch let error as DecodingError {
            // The field's path and what is wrong with it, in the words a host answers a bad body with.
            throw UsageError("\(path): \(HTTPError.invalidJSON(error).message)")
        }
        guard let regions = (json as? [String: Any])?["regions"] as? [String: Any] else {
            throw UsageError("\(path): regions must be an object of each region's part")
        }
        let parts = try regions.keys.sorted().map { region in
            (region, Array(try JSONSerialization.data(withJSONObject: regions[region]!)))
        }
        let wallet = try ((json as? [String: Any])?["wallet"]).map { Array(try JSONSerialization.data(withJSONObject: $0)) }
        return Plan(parts: parts, wallet: wallet, seed: seed, file: path)
    }

    /// Applies `plan` to a running sandbox; the lines that say what was made.
    static func apply(_ plan: Plan, to sandbox: RunningSandbox, dataDirectory: URL) throws -> [String] {
        var hosts: [(String, RunningSandbox.Service, [UInt8])] = []
        for (region, body) in plan.parts {
            guard let service = sandbox.services.first(where: { $0.name == region }) else {
                let running = sandbox.services.map(\.name).filter { $0 != "wallet" && $0 != "webhooks" }
                throw CommandFailure(
                    description: "\(plan.file): regions.\(region): no host of region \(region) runs in this sandbox (\(running.joined(separator: ", "))); nothing was applied")
            }
            hosts.append((region, service, body))
        }
        if plan.wallet != nil {
            guard let wallet = sandbox.services.first(where: { $0.name == "wallet" }) else {
                throw CommandFailure(description: "\(plan.file): wallet: this sandbox runs no wallet; nothing was applied")
            }
            hosts.append(("wallet", wallet, plan.wallet!))
        }
        let folders = try deviceFolders(plan, dataDirectory: dataDirectory)
        func refused(_ region: String, _ failure: RunningSandbox.Failure) -> CommandFailure {
            guard let envelope = failure.envelope else { return CommandFailure(description: failure.description) }
            let part = region == "wallet" ? "wallet" : "regions.\(region)"
            let field = envelope.error.field.map { "\(part).\($0): " } ?? "\(part): "
            return CommandFailure(
                description: "\(plan.file): \(field)\(envelope.error.message ?? envelope.error.code.rawValue) (\(envelope.error.code.rawValue)); nothing was applied",
                envelope: envelope)
        }
        // Every host checks its part first: one that refuses leaves every part unapplied.
        for (region, service, body) in hosts {
            do { try sandbox.call(service, .post, "/_sandbox/seed?dryRun=true", bytes: body) } catch {
                throw refused(region, error)
            }
        }
        var lines: [String] = []
        for (region, service, body) in hosts {
            if region == "wallet" {
                let result: WalletSeedResult
                do {
                    result = try JSONDecoder().decode(WalletSeedResult.self, from: Data(try sandbox.call(service, .post, "/_sandbox/seed", bytes: body)))
                } catch let failure as RunningSandbox.Failure {
                    throw refused(region, failure)
                }
                lines.append("Seeded the wallet: \(result.customers.count) customer\(result.customers.count == 1 ? "" : "s"), \(result.rules.count) rule\(result.rules.count == 1 ? "" : "s").")
                continue
            }
            let result: SeedResult
            do {
                result = try JSONDecoder().decode(SeedResult.self, from: Data(try sandbox.call(service, .post, "/_sandbox/seed", bytes: body)))
            } catch let failure as RunningSandbox.Failure {
                throw refused(region, failure)
            }
            var devices: [String] = []
            for device in result.devices {
                let folder = folders[region + "/" + device.terminalId]!
                try DeviceFolder.write(device, region: region, to: folder)
                devices.append("\(device.terminalId)\(device.sessionToken == nil ? "" : ", logged in") in \(folder.path)")
            }
            var parts: [String] = []
            if !devices.isEmpty { parts.append("\(devices.count) device\(devices.count == 1 ? "" : "s") (\(devices.joined(separator: "; ")))") }
            if !result.transactions.isEmpty { parts.append("\(result.transactions.count) payment\(result.transactions.count == 1 ? "" : "s")") }
            if !result.webhooks.isEmpty { parts.append("webhook endpoint\(result.webhooks.count == 1 ? "" : "s") of \(result.webhooks.joined(separator: ", "))") }
            for order in result.qrOrders ?? [] {
                parts.append("a \(order.brand) QR order waiting at the wallet on \(order.terminalId) (\(order.payUrl))")
            }
            lines.append("Seeded \(region): \(parts.isEmpty ? "nothing (its part is empty)" : parts.joined(separator: ", ")).")
        }
        return lines
    }

    /// Where each device's folder goes (by region/terminal): the seed's `folder`, relative to the
    /// current folder, or `<data-dir>/devices/<region>` as `tapsim` reads it. Two devices in one
    /// folder would overwrite each other: refused.
    static func deviceFolders(_ plan: Plan, dataDirectory: URL) throws -> [String: URL] {
        var folders: [String: URL] = [:]
        var taken: [String: String] = [:]
        for region in plan.seed.regions.keys.sorted() {
            for (index, device) in (plan.seed.regions[region]?.devices ?? []).enumerated() {
                let field = "regions.\(region).devices[\(index)].folder"
                let folder =
                    device.folder.map { URL(fileURLWithPath: $0) }
                    ?? dataDirectory.appendingPathComponent("devices").appendingPathComponent(region)
                if device.folder?.isEmpty == true { throw UsageError("\(plan.file): \(field) is empty") }
                let key = folder.standardizedFileURL.path
                if let other = taken[key] {
                    throw UsageError(
                        "\(plan.file): \(field): \(other) already goes to \(folder.path); give each device a folder of its own (tapsim --device DIR)")
                }
                taken[key] = "regions.\(region).devices[\(index)]"
                folders[region + "/" + device.terminalId] = folder
            }
        }
        return folders
    }
}
