import Foundation
import SandboxTestSupport
import Testing

/// The device libraries are what an app links: none may pull in a module of the hosts.
@Suite("Device products have no server module in their dependency graph")
struct DependencyGraphTests {
    /// The modules of the sandbox's services, and the C libraries only they use.
    static let serverModules: Set<String> = [
        "SandboxCore", "SandboxStore", "SandboxHTTP", "EnvironmentHost", "PortalSimulator", "WalletSimulator", "WebhookInbox", "Launcher",
        "CommandLineSupport", "CMicroHTTPD", "CSQLite", "SandboxQRCode", "CQREncode",
    ]

    /// Target name → the targets and products it names, read from Package.swift.
    static func targets() throws -> [String: [String]] {
        let manifest = try String(contentsOf: Paths.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try Regex(#"\.(?:target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"(\w+)"(?:,\s*dependencies:\s*\[((?:[^\[\]]|\[[^\[\]]*\])*)\])?"#)
        let quoted = try Regex(#""(\w+)""#)
        var graph: [String: [String]] = [:]
        for match in manifest.matches(of: declaration) {
            let name = String(match.output[1].substring ?? "")
            let list = match.output[2].substring.map(String.init) ?? ""
            graph[name] = list.matches(of: quoted).compactMap { $0.output[1].substring.map(String.init) }
        }
        return graph
    }

    static func closure(of root: String, in graph: [String: [String]]) -> Set<String> {
        var seen: Set<String> = []
        var queue = [root]
        while let next = queue.popLast() {
            for dependency in graph[next] ?? [] where seen.insert(dependency).inserted {
                queue.append(dependency)
            }
        }
        return seen
    }

    @Test("Payments, TapToPayHardware, TapOnPartner, MoneiTapToPay, TapOnMobileSandbox and SandboxTesting link no server module", arguments: [
        "Payments", "TapToPayHardware", "TapOnPartner", "MoneiTapToPay", "TapOnMobileSandbox", "SandboxTesting",
    ])
    func deviceProduct(_ target: String) throws {
        let graph = try Self.targets()
        try #require(graph[target] != nil, "Package.swift has no target \(target)")
        #expect(graph["EnvironmentHost"]?.contains("SandboxHTTP") == true, "the manifest reader sees dependencies: \(graph["EnvironmentHost"] ?? [])")
        let reached = Self.closure(of: target, in: graph)
        #expect(reached.isDisjoint(with: Self.serverModules), "\(target) reaches \(reached.intersection(Self.serverModules).sorted())")
        if target == "TapToPayHardware" { #expect(reached.contains("Payments") && reached.contains("SimulatedReader")) }
    }
}
