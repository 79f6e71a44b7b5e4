import Foundation
import SandboxCore
import SandboxHTTP
import SandboxWire
import Testing
import SandboxTestSupport
import WalletSimulator
import WalletRules
import WalletStorage
import WebhookSignature

/// The secrets of `sandbox-data/wallet.json`, read once.
public let walletData: WalletData = {
    (try? WalletData.load(contentsOf: Paths.sandboxData.appendingPathComponent(WalletData.fileName))) ?? WalletData(secrets: [:])
}()

/// A wallet simulator started in this process on a port the system picks, its database in a temporary
/// folder (pass a previous wallet's folder to restart on the same state), its clock at hand and
/// standing still but for what the test moves (as ``InProcessHost``'s), sending its notifications to `hosts`.
public final class InProcessWallet: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let wallet: WalletSimulator
    public let clock: SandboxClock
    public let service: Service

    public init(directory: TemporaryDirectory = TemporaryDirectory(), hosts: [String: String] = [:], payWait: Duration = .seconds(2),
        blikCodes: BlikCodeSource = .random, clock: SandboxClock = .standingStill()
    ) throws {
        self.directory = directory
        self.clock = clock
        var configuration = WalletSimulator.Configuration(
            server: ServerConfiguration(drainSeconds: 0.1), webRoot: Paths.web.appendingPathComponent("wallet"),
            openAPIFile: Paths.openAPI.appendingPathComponent("wallet.yaml"), dataDirectory: directory.file("state"),
            data: walletData, hostURLs: hosts, clock: clock, blikCodes: blikCodes, firstRetry: .milliseconds(50), longestRetry: .milliseconds(200),
            payWait: payWait)
        // On PostgreSQL in the second pass of `make test`, as the hosts (the same database again
        // for a wallet started on the same folder).
        configuration.database = try InProcessHost.database(for: directory)
        wallet = try WalletSimulator.start(configuration: configuration)
        // Answered in process, as InProcessHost's: the hosts it notifies are still called over HTTP.
        service = Service(name: "wallet", baseURL: wallet.url, responder: wallet)
    }

    public func stop() { wallet.stop() }

    /// A request of the provider API, signed as `region`'s host (or with `secret` instead of its own).
    public func provider(
        _ method: String, _ path: String, _ body: [String: Any]? = nil, region: String = "EU", secret: String? = nil,
        signature: String?? = .none, timestamp: Int = Int(Date().timeIntervalSince1970)
    ) -> HTTPReply {
        let bytes = body.map { Array((try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys])) ?? Data()) } ?? []
        let key = secret ?? walletData.secrets[region] ?? "no-secret-for-this-region"
        var headers = ProviderSignature.headers(region: region, secret: key, body: bytes, timestamp: timestamp)
        if case .some(let replaced) = signature {
            headers.removeAll { $0.0 == WalletProvider.signatureHeader }
            if let replaced { headers.append((WalletProvider.signatureHeader, replaced)) }
        }
        return service.call(method, path, raw: bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self), headers: headers)
    }

    /// A provider request with exactly `raw` as its body, signed as EU's host.
    public func signedRaw(_ method: String, _ path: String, _ raw: String) -> HTTPReply {
        let headers = ProviderSignature.headers(
            region: "EU", secret: walletData.secrets["EU"] ?? "", body: Array(raw.utf8), timestamp: Int(Date().timeIntervalSince1970))
        return service.call(method, path, raw: raw.isEmpty ? nil : raw, headers: headers)
    }

    /// Makes an order as EU's host does; `change` edits the request first.
    ///
    /// It lives a day unless `expiresIn` says otherwise: the wallet's clock runs on with real time,
    /// and a test that does not test expiry must not see its order expire on a slow machine.
    @discardableResult
    public func makeOrder(
        _ id: String = "tx-" + String(UInt32.random(in: 1...UInt32.max)), amount: Int = 1250, terminal: String = "EU-T0101",
        expiresIn: Int = 86_400, change: (inout [String: Any]) -> Void = { _ in }
    ) -> HTTPReply {
        var body: [String: Any] = [
            "orderId": id, "region": "EU", "merchantId": "EU-M01", "merchantName": "Café Lumière", "terminalId": terminal,
            "amount": amount, "currency": "EUR", "brand": "ALIPAY", "brandFullName": "Alipay+", "reference": "INV-1",
            "expiresInSeconds": expiresIn,
        ]
        change(&body)
        return provider("POST", "/provider/v1/orders", body)
    }

    /// A customer or sandbox-control request (blocking, from async tests too).
    @discardableResult
    public func call(_ method: String, _ path: String, body: [String: Any]? = nil, raw: String? = nil) -> HTTPReply {
        service.call(method, path, body: body, raw: raw)
    }

    public func order(_ id: String) -> HTTPReply { service.call("GET", "/api/orders/\(id)") }

    @discardableResult
    public func press(_ action: String, _ id: String, body: [String: Any]? = nil) -> HTTPReply {
        service.call("POST", "/api/orders/\(id)/\(action)", body: body)
    }

    /// Moves the wallet's clock (what fell due is carried out before the answer).
    @discardableResult
    public func advance(_ seconds: Double) -> HTTPReply {
        service.call("POST", "/_sandbox/clock", body: ["advanceSeconds": seconds])
    }
}
