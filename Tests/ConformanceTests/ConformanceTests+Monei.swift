import Foundation
import SandboxCrypto
import SandboxTestSupport
import Testing

/// The MONEI host against `openapi/monei.yaml`, which it serves at `/openapi.yaml`: one pass for the
/// backend's operations with the account's bare API key, one for the device's with a POS token.
@Suite("the MONEI host answers as openapi/monei.yaml says", .blocksThreads)
struct MoneiConformanceTests {
    @Test("schemathesis: the backend's and the device's operations of the MONEI host conform to openapi/monei.yaml")
    func moneiConformsToItsDocument() throws {
        _ = try Schemathesis.server()
        let host = try HostUnderTest(region: "MONEI")
        let fixtures = try Fixtures.load(region: "MONEI")
        let key = try #require(fixtures.merchants.first?.apiKey)
        let token = try #require(try host.expect(200, "POST", "/v1/pos/auth-token", authorization: key)["token"] as? String)
        // Payments to read and refund: approved ones, and a declined one (42.05).
        let prepared = try host.expect(200, "POST", "/v1/pos/prepare", bearer: token)
        let reader = prepared["reader"] as? [String: Any] ?? [:]
        let readerKey = try Base64.decode(reader["readerKey"] as? String ?? "")
        let readAt = Int64(((reader["serverTimeUnix"] as? NSNumber)?.doubleValue ?? 0) * 1000)
        let pointOfSale = try #require(prepared["pointOfSaleId"] as? String)
        let card = try #require(try PaymentDevice.loadCards()["visa-es"])
        var payments: [String] = []
        for amount in [1000, 2500, 4205, 700] {
            let plaintext = try JSONSerialization.data(
                withJSONObject: ["v": 1, "readId": PaymentDevice.readID(), "readAt": readAt, "card": card, "pin": NSNull()], options: [.sortedKeys])
            let box = try AESGCM.seal(plaintext, key: readerKey, associatedData: Array("tapsandbox-card-v1|MONEI|\(pointOfSale)".utf8))
            let paid = try host.expect(
                200, "POST", "/v1/pos/payments", body: ["amount": amount, "orderId": "conformance-\(amount)", "card": Base64.encode(box.combined)],
                bearer: token)
            payments.append(try #require(paid["id"] as? String, "\(paid)"))
        }
        let passes: [(name: String, tag: String, bearer: String?, header: String?, settings: [Schemathesis.OperationSettings])] = [
            (
                "backend", "monei-backend", nil, key,
                [
                    .init(
                        operations: ["createPosAuthToken"],
                        reason: "A schema-valid storeId or pointOfSaleId is mostly no store of the account: rightly 404.",
                        parameters: [("body.storeId", "stores"), ("body.pointOfSaleId", "pointsOfSale")],
                        positiveStatuses: ["2xx", "404"]),
                    .init(
                        operations: ["getPayment"], reason: "Ids of payments made before the run, else 404.",
                        parameters: [("path.id", "payments")], positiveStatuses: ["2xx", "404"]),
                    .init(
                        operations: ["refundPayment"],
                        reason: """
                            Refunds use up their payment: once refunded in full it is 409 already_refunded; a declined one \
                            is 409; an amount over what is left is 422; an unknown id 404.
                            """,
                        parameters: [("path.id", "payments")], positiveStatuses: ["2xx", "404", "409", "422"]),
                ]
            ),
            (
                "device", "monei-device", token, nil,
                [
                    .init(
                        operations: ["createPosPayment"],
                        reason: """
                            card is a sealed card payload (AES-GCM under the reader key): no generated string opens, so a \
                            schema-valid body is rightly 400 card_payload_invalid. Schema-violating bodies are still checked \
                            to be refused.
                            """,
                        noPositiveCheck: true)
                ]
            ),
        ]
        for pass in passes {
            let outcome = try Schemathesis.run(
                base: host.base, filters: ["--include-tag", pass.tag], authorization: pass.bearer, header: pass.header,
                dictionaries: [
                    "stores": ["store_giralda_centro", "store_giralda_triana", "store_nautilus_gracia"],
                    "pointsOfSale": ["MONEI-T0101", "MONEI-T0102", "MONEI-T0103", "MONEI-T0201"], "payments": payments,
                ],
                settings: pass.settings)
            print("conformance: monei: \(pass.name): \(outcome.passed ? "conforms" : "FAILED")")
            if !outcome.passed {
                Issue.record(
                    """
                    schemathesis found answers of the MONEI \(pass.name) pass that do not conform to openapi/monei.yaml \
                    (exit \(outcome.status.map(String.init) ?? "killed")).
                    command: \(outcome.commandLine)
                    \(outcome.output)
                    config file of this run:
                    \(outcome.configuration)
                    """)
            }
        }
    }
}
