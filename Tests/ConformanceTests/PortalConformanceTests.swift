import Foundation
import SandboxTestSupport
import Testing

/// The running portal (`sandbox up`, every host behind it) against `openapi/portal.yaml`, and that
/// document against the relay table it is written from (`scripts/portal-openapi`).
@Suite("OpenAPI conformance of the portal", .blocksThreads)
struct PortalConformanceTests {
    @Test("openapi/portal.yaml is what scripts/portal-openapi writes from the relay table and the host's document")
    func documentIsUpToDate() throws {
        let python = try #require(onPath("python3"), "python3 is needed; run scripts/setup")
        let result = try Schemathesis.capture(
            [python.path, Paths.repository.appendingPathComponent("scripts/portal-openapi").path, "--check"])
        #expect(result.status == 0, "\(result.output)")
    }

    /// Schema rules of the host that a relayed request meets on the portal too (the same
    /// operation ids as the host's document, so the reasons are the host's).
    static func settings(_ fixtures: Fixtures) -> [Schemathesis.OperationSettings] {
        typealias Settings = Schemathesis.OperationSettings
        return [
            Settings(
                operations: ["listBackofficeTransactions", "exportBackofficeTransactions"],
                reason: "The EU merchants and terminals.",
                parameters: [("query.merchantId", "merchants"), ("query.terminalId", "terminals")]),
            Settings(
                operations: ["getBackofficeStatistics"],
                reason: "fromDate after toDate is rightly 400 invalid_request: no JSON Schema keyword orders two parameters.",
                parameters: [("query.merchantId", "merchants"), ("query.terminalId", "terminals")],
                positiveStatuses: ["2xx", "400"]),
            Settings(
                operations: ["refreshRegistrationToken", "revokeRegistrationToken"],
                reason: """
                    A token is its region's (`rt_eu_…`): one asked of another region's host is rightly 400 \
                    registration_token_wrong_environment, which no schema keyword can tie to the path's region.
                    """,
                positiveStatuses: ["2xx", "400", "404", "409"]),
            Settings(
                operations: ["emailRegistrationToken"],
                reason: "What an e-mail address is, is the host's rule: a schema-valid string is often 400.",
                positiveStatuses: ["2xx", "400", "404", "409", "410"]),
            Settings(
                operations: ["getMerchantWebhook", "rotateWebhookSecret"], reason: "The EU merchants.",
                parameters: [("path.merchantId", "merchants")]),
            Settings(
                operations: ["updateMerchantWebhook"],
                reason: """
                    The EU merchants. The callbackUrl rules (https, no private or loopback address but loopback on this \
                    flavour) are no schema's business: a schema-valid url is rightly 400 invalid_request.
                    """,
                parameters: [("path.merchantId", "merchants")],
                positiveStatuses: ["2xx", "400", "404"]),
            Settings(
                operations: ["unlockTerminal", "unregisterTerminal"], reason: "The EU terminals.",
                parameters: [("path.terminalId", "terminals")]),
            Settings(
                operations: ["createBackofficeRegistrationToken"], reason: "The EU terminals.",
                parameters: [("body.terminalId", "terminals")]),
            Settings(
                operations: ["listWebhookEvents"], reason: "The EU merchants.", parameters: [("query.merchantId", "merchants")]),
            Settings(
                operations: ["triggerWebhook"],
                reason: "The EU merchants; one without a webhook endpoint is rightly 409 no_webhook_endpoint.",
                parameters: [("body.merchantId", "merchants")],
                positiveStatuses: ["2xx", "404", "409"]),
        ]
    }

    @Test("the portal answers as its OpenAPI document says, relayed answers of every host included")
    func portalConformsToTheDocument() throws {
        _ = try Schemathesis.server()
        let data = TemporaryDirectory()
        let (sandbox, basePort) = try startSandboxUp(dataDirectory: data.url)
        defer { _ = sandbox.finish(within: 2) }
        // The portal's port comes after Worldline's regions.
        let base = "http://127.0.0.1:\(basePort + RegionFacts.worldline.count)"
        let fixtures = try Fixtures.load()
        let dictionaries = ["merchants": fixtures.merchants.map(\.id), "terminals": fixtures.terminals.map(\.id)]
        // Faults last and alone: one a generated request sets (a 4xx for every back-office call, say)
        // changes what every later relayed call answers.
        let passes: [(name: String, filters: [String])] = [
            ("portal (without faults)", ["--exclude-operation-id-regex", "^(addFault|removeFault|clearFaults|listFaults)$"]),
            ("portal: faults", ["--include-operation-id-regex", "^(addFault|removeFault|clearFaults|listFaults)$"]),
        ]
        for pass in passes {
            let started = Date()
            let outcome = try Schemathesis.run(
                base: base, filters: pass.filters, authorization: nil, dictionaries: dictionaries,
                settings: Self.settings(fixtures), timeoutSeconds: 600)
            let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
            print("conformance: \(pass.name): \(outcome.passed ? "conforms" : "FAILED") in \(seconds) s")
            if !outcome.passed {
                Issue.record(
                    """
                    schemathesis found answers of the \(pass.name) pass that do not conform to openapi/portal.yaml \
                    (\(seconds) s, exit \(outcome.status.map(String.init) ?? "killed")).
                    command: \(outcome.commandLine)
                    \(outcome.output)
                    config file of this run:
                    \(outcome.configuration)
                    """)
            }
        }
    }
}
