import EnvironmentHost
import Foundation
import SandboxCore
import SandboxHTTP
import SandboxTestSupport
import Testing

/// A seed's QR orders on a host that cannot reach a wallet: the order is not made, and nothing of
/// the seed stays (its device is not registered).
@Suite struct SeedQROrderTests {
    let folder = TemporaryDirectory()

    @Test("no wallet: 502 apm_provider_unavailable, and the seed's device is not registered")
    func noWalletNothingStays() throws {
        let host = try EnvironmentHostTests.host("EU", clock: SandboxClock(), in: folder.url)
        let seed = #"{"devices":[{"terminalId":"EU-T0101","secureCode":"2468"}],"qrOrders":[{"terminalId":"EU-T0101","amount":1250}]}"#
        let dry = host.respond(to: Request(
            method: "POST", path: "/_sandbox/seed", query: ["dryRun": "true"], headers: ["content-type": "application/json"], body: Array(seed.utf8)))
        #expect(dry.status == 200, "a dry run makes no order: \(String(decoding: dry.body, as: UTF8.self))")
        let refused = host.respond(to: Request(method: "POST", path: "/_sandbox/seed", headers: ["content-type": "application/json"], body: Array(seed.utf8)))
        #expect(refused.status == 502 && String(decoding: refused.body, as: UTF8.self).contains("apm_provider_unavailable"), "\(refused.status)")
        let again = host.respond(to: Request(
            method: "POST", path: "/_sandbox/seed", headers: ["content-type": "application/json"],
            body: Array(#"{"devices":[{"terminalId":"EU-T0101","secureCode":"2468"}]}"#.utf8)))
        #expect(again.status == 201, "the terminal is still free: \(String(decoding: again.body, as: UTF8.self))")
    }
}
