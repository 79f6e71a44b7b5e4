import DeviceTransport
import Foundation
import SandboxWire

/// The sandbox's state: back to the fixtures, a seed, snapshots.
extension TestSandbox {
    /// Every region back to its fixtures, the wallet to `wallet.json`, the inbox emptied (as
    /// `sandbox reset`).
    public func reset() async throws(TestSandboxError) {
        var targets = endpoints.environments.values.map { ($0, "POST", "/_sandbox/reset") }
        if let wallet = endpoints.wallet { targets.append((wallet, "POST", "/_sandbox/reset")) }
        if let inbox = endpoints.inbox { targets.append((inbox, "DELETE", "/api/events")) }
        try await Self.each(targets) { (base: URL, method: String, path: String) async throws(TestSandboxError) in
            try await call(method, base, path)
        }
    }

    /// Applies a seed whole or not at all: every region's host and the wallet check their part
    /// first (a part one refuses leaves the others untouched), then each applies it. Answers each
    /// region's devices (secrets, sessions) and payments.
    ///
    /// - Throws: the first refusal, its ``TestSandboxError/field`` the path in the seed
    ///   (`regions.EU.devices[0].secureCode`).
    @discardableResult
    public func seed(_ seed: SandboxSeed) async throws(TestSandboxError) -> [SeedResult] {
        var parts: [(String, URL, Data)] = []
        for region in seed.regions.keys.sorted() { parts.append((region, try host(region), try Self.json(seed.regions[region]!))) }
        func located(_ region: String, _ error: TestSandboxError) -> TestSandboxError {
            TestSandboxError(status: error.status, code: error.code, message: error.message, field: "regions.\(region)" + (error.field.map { "." + $0 } ?? ""))
        }
        var walletPart: (URL, Data)?
        if let wallet = seed.wallet { walletPart = (try self.wallet(), try Self.json(wallet)) }
        for (region, base, body) in parts {
            do throws(TestSandboxError) {
                try await call("POST", base, "/_sandbox/seed?dryRun=true", body: body)
            } catch {
                throw located(region, error)
            }
        }
        if let (base, body) = walletPart {
            do throws(TestSandboxError) {
                try await call("POST", base, "/_sandbox/seed?dryRun=true", body: body)
            } catch {
                throw TestSandboxError(status: error.status, code: error.code, message: error.message, field: "wallet" + (error.field.map { "." + $0 } ?? ""))
            }
        }
        var results: [SeedResult] = []
        for (region, base, body) in parts {
            do throws(TestSandboxError) {
                results.append(try await call("POST", base, "/_sandbox/seed", body: body, as: SeedResult.self))
            } catch {
                throw located(region, error)
            }
        }
        if let (base, body) = walletPart { try await call("POST", base, "/_sandbox/seed", body: body) }
        return results
    }

    /// Applies a seed file (`sandbox-data/seeds/`).
    @discardableResult
    public func seed(contentsOf file: URL) async throws(TestSandboxError) -> [SeedResult] {
        let seed: SandboxSeed
        do {
            let data = try Data(contentsOf: file)
            if let field = SandboxSeed.unknownField(in: try JSONSerialization.jsonObject(with: data)) {
                throw TestSandboxError(status: nil, code: nil, message: "\(field) is not a field of a seed.", field: field)
            }
            seed = try JSONDecoder().decode(SandboxSeed.self, from: data)
        } catch let error as TestSandboxError {
            throw error
        } catch {
            throw TestSandboxError(status: nil, code: nil, message: "\(file.path) is not a seed: \(error)", field: nil)
        }
        return try await self.seed(seed)
    }

    /// Every service that keeps state: the hosts, the wallet, the inbox.
    private var services: [URL] {
        endpoints.environments.keys.sorted().map { endpoints.environments[$0]! } + [endpoints.wallet, endpoints.inbox].compactMap { $0 }
    }

    /// Saves the state of every service under `name` (a snapshot saved before under it is replaced).
    public func snapshot(_ name: String) async throws(TestSandboxError) {
        let body = try Self.json(["name": name])
        try await Self.each(services) { base async throws(TestSandboxError) in try await call("POST", base, "/_sandbox/snapshots", body: body) }
    }

    /// Brings back every service's state as ``snapshot(_:)`` saved it; requests that come meanwhile wait.
    public func restore(_ name: String) async throws(TestSandboxError) {
        let path = "/_sandbox/snapshots/\(DeviceTransport.encode(name))/restore"
        try await Self.each(services) { base async throws(TestSandboxError) in try await call("POST", base, path) }
    }

    public func deleteSnapshot(_ name: String) async throws(TestSandboxError) {
        let path = "/_sandbox/snapshots/\(DeviceTransport.encode(name))"
        try await Self.each(services) { base async throws(TestSandboxError) in try await call("DELETE", base, path) }
    }

    /// The names of the snapshots every service holds a part of.
    public func snapshots() async throws(TestSandboxError) -> [String] {
        struct Listing: Decodable {
            struct Entry: Decodable { let name: String }
            let snapshots: [Entry]
        }
        var common: Set<String>?
        for base in services {
            let names = Set(try await call("GET", base, "/_sandbox/snapshots", as: Listing.self).snapshots.map(\.name))
            common = common.map { $0.intersection(names) } ?? names
        }
        return (common ?? []).sorted()
    }
}
