import DeviceTransport
import Foundation
import SandboxWire

/// A running sandbox, as an app's tests drive it: its state (``reset()``, ``seed(_:)``,
/// ``snapshot(_:)`` and ``restore(_:)``), its clocks, its faults, the customer at the wallet, the
/// webhooks its inbox received and the requests a host answered.
///
/// Every call goes to the sandbox's control API (docs/testing-your-app.md) over the device
/// libraries' transport: URLSession on Apple platforms, so an XCUITest or Swift Testing run on the
/// Mac or in the simulator reaches the sandbox `make run` started on the Mac.
///
/// ```swift
/// import SandboxTesting
///
/// let sandbox = TestSandbox.local()                 // make run's ports on this Mac
/// try await sandbox.reset()
/// let seeded = try await sandbox.seed(contentsOf: seedURL)
/// try await sandbox.snapshot("ready-to-pay")
/// // … one journey …
/// try await sandbox.restore("ready-to-pay")
/// ```
public struct TestSandbox: Sendable {
    /// Where the sandbox's services listen.
    public struct Endpoints: Sendable, Equatable {
        /// Each region's host, by region id (`EU`, `MBANK`, `MONEI`, …).
        public var environments: [String: URL]
        /// The merchant portal, which relays each host's back office (its request journal).
        public var portal: URL?
        public var wallet: URL?
        /// The webhook inbox.
        public var inbox: URL?
        /// The key sandbox control needs when the sandbox listens beyond loopback.
        public var controlKey: String?

        public init(environments: [String: URL], portal: URL? = nil, wallet: URL? = nil, inbox: URL? = nil, controlKey: String? = nil) {
            self.environments = environments
            self.portal = portal
            self.wallet = wallet
            self.inbox = inbox
            self.controlKey = controlKey
        }
    }

    public let endpoints: Endpoints
    private let transport: DeviceTransport

    /// A sandbox at `endpoints`; each call may take `timeout` seconds.
    public init(_ endpoints: Endpoints, timeout: TimeInterval = 30) {
        self.endpoints = endpoints
        transport = DeviceTransport(timeout: timeout, userAgent: "SandboxTesting")
    }

    /// The sandbox an `endpoints.json` names (`sandbox up` writes it in its data directory).
    public init(endpointsFile: URL, timeout: TimeInterval = 30) throws(TestSandboxError) {
        let file: EndpointsFile
        do {
            file = try EndpointsFile.load(from: endpointsFile)
        } catch {
            throw TestSandboxError(status: nil, code: nil, message: error.description, field: nil)
        }
        func url(_ text: String?) -> URL? { text.flatMap(URL.init(string:)) }
        self.init(
            Endpoints(
                environments: file.environments.compactMapValues(URL.init(string:)), portal: url(file.portal), wallet: url(file.wallet),
                inbox: url(file.webhooks),
                controlKey: file.controlKey),
            timeout: timeout)
    }

    /// The sandbox `make run` (`sandbox up`) starts with its default ports, on this machine:
    /// region *i* of the catalogue on `basePort + i`, the wallet on `basePort + 10`, the inbox on
    /// `basePort + 11` (the portal on `basePort + 9`), the other vendors' regions after them.
    public static func local(host: String = "127.0.0.1", basePort: Int = 8100, controlKey: String? = nil) -> TestSandbox {
        func url(_ offset: Int) -> URL { URL(string: "http://\(host):\(basePort + offset)")! }
        var environments: [String: URL] = [:]
        for (offset, region) in DefaultPorts.worldlineRegions.enumerated() { environments[region] = url(offset) }
        for (region, offset) in DefaultPorts.vendorRegionOffsets { environments[region] = url(offset) }
        return TestSandbox(
            Endpoints(
                environments: environments, portal: url(DefaultPorts.portalOffset), wallet: url(DefaultPorts.walletOffset),
                inbox: url(DefaultPorts.inboxOffset), controlKey: controlKey))
    }

    // MARK: - Calls

    /// The host of `region`, or an error naming the regions there are.
    func host(_ region: String) throws(TestSandboxError) -> URL {
        guard let url = endpoints.environments[region] else {
            throw TestSandboxError(
                status: nil, code: nil, message: "No host of region \(region) in this sandbox (\(endpoints.environments.keys.sorted().joined(separator: ", "))).",
                field: nil)
        }
        return url
    }

    func wallet() throws(TestSandboxError) -> URL {
        guard let url = endpoints.wallet else { throw TestSandboxError(status: nil, code: nil, message: "This sandbox has no wallet.", field: nil) }
        return url
    }

    func portal() throws(TestSandboxError) -> URL {
        guard let url = endpoints.portal else { throw TestSandboxError(status: nil, code: nil, message: "This sandbox has no portal.", field: nil) }
        return url
    }

    func inbox() throws(TestSandboxError) -> URL {
        guard let url = endpoints.inbox else { throw TestSandboxError(status: nil, code: nil, message: "This sandbox has no webhook inbox.", field: nil) }
        return url
    }

    /// One control call whose answer is not read; the service's refusal as a ``TestSandboxError``.
    func call(_ method: String, _ base: URL, _ path: String, body: Data? = nil) async throws(TestSandboxError) {
        _ = try await call(method, base, path, body: body, as: JSONClient.Empty.self)
    }

    /// A control call whose answer is JSON of type `T`, over the device libraries' ``JSONClient``
    /// (with the control key when the sandbox has one).
    func call<T: Decodable & Sendable>(
        _ method: String, _ base: URL, _ path: String, body: Data? = nil, as type: T.Type
    ) async throws(TestSandboxError) -> T {
        let headers = endpoints.controlKey.map { ["X-Sandbox-Control-Key": $0] } ?? [:]
        switch await JSONClient(baseURL: base, transport: transport).send(method, path, json: body, headers: headers, as: type) {
        case .value(let answer):
            return answer
        case .failed(let failure):
            throw TestSandboxError(status: nil, code: nil, message: "\(failure.message) Is the sandbox running (make run)?", field: nil)
        case .invalidURL(let message), .unencodable(let message):
            throw TestSandboxError(status: nil, code: nil, message: "Not sent: \(message)", field: nil)
        case .undecodable(_, let message):
            throw TestSandboxError(status: nil, code: nil, message: "\(base.absoluteString)\(path) answered what this library cannot read: \(message)", field: nil)
        case .refused(let status, let envelope, _):
            throw TestSandboxError(
                status: status, code: envelope?.error.code,
                message: envelope?.error.message ?? "\(method) \(base.absoluteString)\(path) answered \(status).", field: envelope?.error.field)
        }
    }

    /// `object` as a JSON body.
    static func json(_ object: some Encodable) throws(TestSandboxError) -> Data {
        do {
            return try JSONEncoder().encode(object)
        } catch {
            throw TestSandboxError(status: nil, code: nil, message: "Cannot encode \(object): \(error)", field: nil)
        }
    }

    /// Runs `body` for every item at once; the first error (in the items' order) is thrown once all ended.
    static func each<Item: Sendable>(_ items: [Item], _ body: @escaping @Sendable (Item) async throws(TestSandboxError) -> Void) async throws(TestSandboxError) {
        let errors = await withTaskGroup(of: (Int, TestSandboxError?).self) { group in
            for (index, item) in items.enumerated() {
                group.addTask {
                    do throws(TestSandboxError) {
                        try await body(item)
                        return (index, nil)
                    } catch {
                        return (index, error)
                    }
                }
            }
            var found: [(Int, TestSandboxError)] = []
            for await (index, error) in group { if let error { found.append((index, error)) } }
            return found.sorted { $0.0 < $1.0 }
        }
        if let first = errors.first { throw first.1 }
    }
}

/// What a sandbox answered instead of doing what a test asked, or why it did not answer.
public struct TestSandboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status; nil when no answer came.
    public let status: Int?
    /// The sandbox's error code (`invalid_request`, `terminal_in_use`, `snapshot_not_found` …).
    public let code: ErrorCode?
    public let message: String
    /// The field the error names (`regions.EU.devices[0].secureCode`).
    public let field: String?

    public var description: String {
        [status.map(String.init), code.map(\.rawValue), field, message].compactMap { $0 }.joined(separator: " ")
    }
}
