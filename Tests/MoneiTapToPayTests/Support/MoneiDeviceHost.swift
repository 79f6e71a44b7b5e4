import LockedValue
import Foundation
import HostTestSupport
import MoneiTapToPay
import SandboxHTTPClient
import SimulatedReader
import SandboxTestSupport
import Testing

func card(_ name: String) -> TestCard { ShippedCards.card(name) }

/// The MONEI host in this process, as `sandbox up` runs it (sandbox flavour), with its own DNS so
/// that the seed's callback URL (`https://example.com/monei/webhook`) never leaves the machine:
/// `example.com` is loopback unless a test makes it private. It delivers no callbacks (the host's
/// own suites test those).
final class MoneiDeviceHost: Sendable {
    let host: InProcessHost
    let apiKey: String
    private let dns: LockedValueBox<[String: String]>

    init(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dns = LockedValueBox(["example.com": "127.0.0.1"])
        self.dns = dns
        host = try InProcessHost(
            region: "MONEI", dispatches: false,
            resolver: { name in dns.withLockedValue { $0[name] }.flatMap(IPAddress.init(literal:)).map { [$0] } },
            sourceLocation: sourceLocation)
        let fixtures = try MerchantsFile.load(sourceLocation: sourceLocation).region("MONEI", sourceLocation: sourceLocation)
        apiKey = try #require(fixtures.merchants.first?.apiKey, sourceLocation: sourceLocation)
    }

    func stop() { host.stop() }

    var url: URL { URL(string: host.host.url)! }

    /// Makes `name` resolve to `address` from now on.
    func resolve(_ name: String, to address: String) {
        dns.withLockedValue { $0[name] = address }
    }

    /// What a merchant's backend does: `POST /v1/pos/auth-token` with the account's API key.
    @Sendable func fetchPosToken() async throws -> String {
        let reply = await host.service.call("POST", "/v1/pos/auth-token", authorization: apiKey, body: [:])
        guard reply.status == 200, let token = reply.string("token") else { throw HostRefusal(description: "auth-token: \(reply)") }
        return token
    }

    /// Moves the host's clock on (a POS token lives 24 hours on it).
    func advanceClock(hours: Double) {
        host.clock.advance(by: hours * 3600)
    }

    /// Drops the answer of the next `POST /v1/pos/payments` after the host took the payment.
    func dropNextPaymentAnswer(sourceLocation: SourceLocation = #_sourceLocation) async {
        let reply = await host.service.call(
            "POST", "/_sandbox/faults", body: ["match": ["method": "POST", "path": "/v1/pos/payments"], "count": 1, "action": "drop"])
        #expect(reply.status == 201, "\(reply)", sourceLocation: sourceLocation)
    }

    /// The account's payment `id` as the backend reconciles it (`GET /v1/payments/{id}`).
    func payment(_ id: String) async -> HTTPReply {
        await host.service.call("GET", "/v1/payments/\(id)", authorization: apiKey)
    }
}

struct HostRefusal: Error, CustomStringConvertible {
    let description: String
}

/// Starts the app afresh against `host`: a manual reader clock (the card screen and the location
/// fix take no time), the customer tapping `tap` for every payment, and what else `change` sets.
@MainActor
@discardableResult
func launch(
    _ host: MoneiDeviceHost, tap: String? = "visa-es", _ change: (inout TapToPaySandbox) -> Void = { _ in }
) -> ManualReaderClock {
    let clock = ManualReaderClock()
    var sandbox = TapToPaySandbox()
    sandbox.endpoint = host.url
    sandbox.endpointsFile = nil
    sandbox.clock = clock
    sandbox.readerScript = ReaderScript(preparationSeconds: 2)
    if let tap {
        let tapped = card(tap)
        sandbox.cardScripts = { _ in .tap(tapped) }
    }
    change(&sandbox)
    TapToPaySandbox.launch(sandbox)
    return clock
}
