import Foundation
import SandboxCrypto
import Testing
import SandboxTestSupport

/// The running `wallet-sim` against `openapi/wallet.yaml`: the customer API, its standing rules
/// and sandbox control, fuzzed by schemathesis with live orders half of the time.
///
/// The provider API is described in the same document but not fuzzed: each of its requests must
/// carry a signature of its exact body, which schemathesis cannot make. WalletSimulatorTests
/// covers it (signatures, every field, every refusal).
@Suite("OpenAPI conformance of the wallet", .blocksThreads)
struct WalletConformanceTests {
    /// A real `wallet-sim` on a port the kernel picks, its state in a fresh folder.
    final class WalletUnderTest {
        let child: ChildProcess
        let folder = TemporaryDirectory()
        let base: String

        init() throws {
            child = try ChildProcess(
                builtExecutable("wallet-sim"), ["--port", "0", "--data-dir", folder.url.path, "--access-log", "off"],
                workingDirectory: folder.url, combinedOutput: true)
            guard child.waitForOutput("listening on http://", seconds: 20),
                let range = child.stdout.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression)
            else {
                child.stop()
                throw HarnessError("wallet-sim did not start:\n\(child.stdout)")
            }
            base = String(child.stdout[range])
        }

        deinit { child.stop() }

        /// Makes an order as EU's host does: signed with EU's secret from `sandbox-data/wallet.json`.
        func makeOrder(_ id: String) throws {
            let file = try Data(contentsOf: Paths.sandboxData.appendingPathComponent("wallet.json"))
            let secrets = try #require((try JSONSerialization.jsonObject(with: file) as? [String: Any])?["secrets"] as? [String: String])
            let body: [String: Any] = [
                "orderId": id, "region": "EU", "merchantId": "EU-M01", "merchantName": "Conformance shop", "terminalId": "EU-T0101",
                "amount": 1250, "currency": "EUR", "brand": "ALIPAY", "expiresInSeconds": 86_400,
            ]
            let bytes = try JSONSerialization.data(withJSONObject: body)
            let timestamp = Int(Date().timeIntervalSince1970)
            let mac = HMACSHA256.authenticate(key: Array(try #require(secrets["EU"]).utf8), message: Array("\(timestamp).".utf8) + Array(bytes))
            let reply = Service(baseURL: base).call(
                "POST", "/provider/v1/orders", raw: String(decoding: bytes, as: UTF8.self),
                headers: [("Wallet-Region", "EU"), ("Wallet-Signature", "t=\(timestamp),v1=\(Hex.encode(mac))")])
            try #require(reply.status == 201, "\(reply)")
        }
    }

    @Test("the wallet answers as its OpenAPI document says", arguments: ["customer", "rules", "blik", "sandbox", "platform"])
    func surfaceConformsToTheDocument(_ tag: String) throws {
        _ = try Schemathesis.server()
        let wallet = try WalletUnderTest()
        let orders = (1...6).map { "conformance-order-\($0)" }
        for order in orders { try wallet.makeOrder(order) }
        let settings = tag == "customer" ? [
            Schemathesis.OperationSettings(
                operations: ["getOrder", "getOrderQR", "scanOrder", "payOrder", "declineOrder", "expireOrder"],
                reason: "Orders made over the provider API before the run; an action on one that is no longer open is rightly 409.",
                parameters: [("path.orderId", "orders")])
        ] : tag == "rules" ? [
            Schemathesis.OperationSettings(
                operations: ["addRule"],
                reason: """
                    `reason` goes only with `decline`, and a rule for refunds only approves or declines: combinations no \
                    JSON Schema keyword here says, so a schema-valid body is sometimes rightly 400 invalid_request. \
                    Schema-violating bodies are still checked to be refused.
                    """,
                noPositiveCheck: true)
        ] : tag == "sandbox" ? [
            Schemathesis.OperationSettings(
                operations: ["seedWallet"],
                reason: """
                    A seed's rules are addRule's: `reason` goes only with `decline`, a rule for refunds only approves or \
                    declines, and a customer is named once; a schema-valid part is sometimes rightly 400 invalid_request. \
                    Schema-violating parts are still checked to be refused.
                    """,
                noPositiveCheck: true)
        ] : tag == "blik" ? [
            Schemathesis.OperationSettings(
                operations: ["getBlikCustomer", "listBlikRequests", "createBlikCode"],
                reason: """
                    The bank's customers are the fixtures of sandbox-data/wallet.json, drawn half of the time; any other \
                    schema-valid id is rightly 404 customer_not_found.
                    """,
                parameters: [("path.customerId", "customers"), ("body.customerId", "customers")], positiveStatuses: ["2xx", "404"])
        ] : []
        let outcome = try Schemathesis.run(
            base: wallet.base, filters: ["--include-tag", tag], authorization: nil,
            dictionaries: ["orders": orders, "customers": ["jan", "anna", "piotr"]],
            settings: settings)
        if !outcome.passed {
            Issue.record(
                """
                schemathesis found answers of the wallet's \(tag) operations that do not conform to openapi/wallet.yaml \
                (exit \(outcome.status.map(String.init) ?? "killed")).
                command: \(outcome.commandLine)
                \(outcome.output)
                config file of this run:
                \(outcome.configuration)
                """)
        }
    }
}
