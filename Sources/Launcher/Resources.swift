import HostRules
import SandboxTime
import CommandLineSupport
import EnvironmentHost
import Foundation
import SandboxCore
import SandboxCrypto
import SandboxHTTP

/// The folders every service reads at start, and the catalogue loaded from them.
public struct Resources: Sendable {
    public var sandboxData: URL
    public var web: URL
    public var openAPI: URL
    public var catalogue: EnvironmentCatalogue
    /// Merchants, terminals and back-office keys of every region.
    public var merchants: MerchantCatalogue
    /// Reader keys, magic amounts, FX rates and the issuer's test cards.
    public var payments: SharedPaymentData

    public init(
        sandboxData: URL, web: URL, openAPI: URL, catalogue: EnvironmentCatalogue, merchants: MerchantCatalogue,
        payments: SharedPaymentData
    ) {
        self.sandboxData = sandboxData
        self.web = web
        self.openAPI = openAPI
        self.catalogue = catalogue
        self.merchants = merchants
        self.payments = payments
    }

    /// Loads every data file of `sandbox-data/` and checks them against each other.
    public static func load(sandboxData: URL, web: URL, openAPI: URL) throws -> Resources {
        let catalogue = try EnvironmentCatalogue.load(contentsOf: sandboxData.appendingPathComponent("environments.json"))
        let merchants = try MerchantCatalogue.load(directory: sandboxData, environments: catalogue)
        let payments = try SharedPaymentData.load(sandboxData: sandboxData, regions: catalogue.regions.map(\.id))
        return Resources(
            sandboxData: sandboxData, web: web, openAPI: openAPI, catalogue: catalogue, merchants: merchants, payments: payments)
    }

    /// What the host of one region gets for card payments.
    public func paymentData(_ region: Region) -> PaymentData {
        payments.data(for: region.id)
    }

    /// The fixtures of one region; the loader guarantees every catalogue region has them.
    public func fixtures(_ region: Region) -> RegionFixtures {
        merchants.region(region.id)!
    }

    /// What a region's host serves at `/openapi.yaml`: its vendor's API (`openapi/monei.yaml` on a
    /// MONEI host), else the TapOnMobile host's (`openapi/environment-host.yaml`).
    public func openAPIFile(_ region: Region) -> URL {
        openAPI.appendingPathComponent(region.vendor == .monei ? "monei.yaml" : "environment-host.yaml")
    }

    /// The stores of a MONEI region (`sandbox-data/monei.json`), or nil for a region of another vendor.
    ///
    /// - Throws: ``MoneiStores/DataError`` naming the file and the field.
    public func moneiStores(_ region: Region) throws -> MoneiStores? {
        guard region.vendor == .monei else { return nil }
        return try MoneiStores.load(contentsOf: sandboxData.appendingPathComponent(MoneiStores.fileName), fixtures: fixtures(region))
    }

    /// Finds the folders (see `ResourceLocator`) and loads and validates the catalogue.
    ///
    /// - Throws: `UsageError` naming what is missing or, for a broken catalogue,
    ///   `environments.json: path.to.field: what is wrong`.
    public static func locate(_ options: ParsedArguments) throws -> Resources {
        let sandboxData = try ResourceLocator.directory("sandbox-data", explicit: options.string("sandbox-data"))
        let web = try ResourceLocator.directory("web", explicit: options.string("web"))
        let openAPI = try ResourceLocator.directory("openapi", explicit: options.string("openapi"))
        do {
            return try load(sandboxData: sandboxData, web: web, openAPI: openAPI)
        } catch let error as any CustomStringConvertible {
            throw UsageError(error.description)
        }
    }

    /// Options every service takes to find its folders.
    static let options: [Option] = [
        .value("sandbox-data", "DIR", "Folder with environments.json and fixtures.", default: nil),
        .value("web", "DIR", "Folder with the portal and wallet pages.", default: nil),
        .value("openapi", "DIR", "Folder with the OpenAPI descriptions.", default: nil),
    ]

    /// The "FILES:" lines of every service's help: where the folders are found.
    static let filesHelp = ResourceLocator.helpText
}

/// Options about listening and logging, shared by every executable.
enum Listening {
    static func options(defaultPort: String?, accessLogDefault: String) -> [Option] {
        var options: [Option] = [
            .value("host", "ADDRESS", "IPv4 address to bind.", default: "127.0.0.1"),
            .value(
                "control-key", "KEY",
                "Key sandbox control (/_sandbox/*) needs in X-Sandbox-Control-Key; default: $SANDBOX_CONTROL_KEY, else a new one when --host is not loopback (printed at start)."),
            .value("max-body-bytes", "N", "Largest request body accepted; larger gets 413.", default: String(1 << 20)),
            .value(
                "trusted-proxy", "ADDRESSES",
                "Comma-separated addresses of proxies (a team's load balancer) whose X-Forwarded-For names the client, so that wrong codes are counted per client, not per proxy. Default: none (the header is ignored)."),
            .value("access-log", "FILE", "Access log: a file, '-' for standard error, or 'off'.", default: accessLogDefault),
            .flag("dry-run", "Check the options and data, print the resolved configuration as JSON, and exit."),
        ]
        if let defaultPort {
            options.insert(.value("port", "N", "TCP port to listen on.", default: defaultPort), at: 1)
        }
        return options
    }

    static func server(_ options: ParsedArguments, port: UInt16) throws(UsageError) -> ServerConfiguration {
        let host = try options.ipv4("host") ?? "127.0.0.1"
        var server = ServerConfiguration(
            host: host, port: port, maxBodyBytes: try options.integer("max-body-bytes", in: 1...(64 << 20)) ?? (1 << 20),
            controlKey: try controlKey(options, host: host))
        if let list = options.string("trusted-proxy") {
            let proxies = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if let bad = proxies.first(where: { !ForwardedFor.isAddress($0) }) {
                throw UsageError("--trusted-proxy takes IP addresses separated by commas, such as 10.0.0.5,10.0.0.6, not '\(bad)'")
            }
            server.trustedProxies = proxies
        }
        return server
    }

    /// The environment variable a team sets once for every service (docker compose passes it on).
    static let controlKeyVariable = "SANDBOX_CONTROL_KEY"

    /// `--control-key`, else `$SANDBOX_CONTROL_KEY`, else a new random key when `host` is not
    /// loopback; nil (control open) on loopback without either.
    static func controlKey(_ options: ParsedArguments, host: String) throws(UsageError) -> String? {
        let given = options.string("control-key") ?? ProcessInfo.processInfo.environment[controlKeyVariable].flatMap { $0.isEmpty ? nil : $0 }
        guard let given else {
            return ListenAddress.isLoopback(host) ? nil : "ctl_" + Hex.encode(SecureRandom.bytes(count: 16))
        }
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.~")
        guard given.count >= 16, given.count <= 200, given.unicodeScalars.allSatisfy(allowed.contains) else {
            throw UsageError(
                "the control key (--control-key or $\(controlKeyVariable)) must be 16 to 200 letters, digits or _-.~, such as the output of 'openssl rand -hex 16'")
        }
        return given
    }

    /// What a person must know at start about sandbox control: nothing on loopback without a key,
    /// else the key and, beyond loopback, that others can reach the service.
    static func controlNotice(_ server: ServerConfiguration) -> String? {
        guard let key = server.controlKey else { return nil }
        let reach = ListenAddress.isLoopback(server.host)
            ? "" : "WARNING: listening on \(server.host), reachable from other machines. "
        return reach + "Sandbox control (/_sandbox/*: clock, reset, faults, webhook triggers) needs the header\n  \(ControlGate.header): \(key)"
    }

    static func accessLog(_ options: ParsedArguments, clock: any TimeSource) throws -> AccessLog? {
        switch options.string("access-log") {
        case nil, "off": return nil
        case "-": return .standardError(clock: clock)
        case let path?: return try AccessLog(path: path, clock: clock)
        }
    }
}

/// Prints a resolved configuration for `--dry-run` (sorted keys, one object).
func printJSON(_ value: [String: any Sendable]) {
    let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .prettyPrinted])) ?? Data()
    print(String(decoding: data, as: UTF8.self))
}

/// Starts one service, says where it listens, and stops it in order on SIGINT or SIGTERM.
func serveUntilSignalled(
    _ start: () throws -> any RunningService, locks: DataDirectoryLocks? = nil,
    afterStart: (any RunningService) throws -> [String] = { _ in [] }, banner: (String) -> String
) throws {
    CommandMain.blockTerminationSignals()
    let service = try start()
    locks?.update(ports: [Int(service.server.port)])
    let said: [String]
    do {
        said = try afterStart(service)
    } catch {
        service.stop()
        throw error
    }
    CommandMain.say(banner(service.reachableURL))
    for line in said { CommandMain.say(line) }
    if let notice = Listening.controlNotice(service.server.configuration) { CommandMain.say(notice) }
    CommandMain.waitForTerminationSignal()
    service.stop()
}
