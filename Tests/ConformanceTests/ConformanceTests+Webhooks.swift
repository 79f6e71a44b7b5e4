import Foundation
import SandboxTestSupport
import Testing

/// Webhooks (docs/webhooks.md): the state the back-office and sandbox passes need, and the event
/// payload, which no request of schemathesis reads, checked against `components.schemas.WebhookEvent`.
///
/// Every endpoint the harness names is on 127.0.0.1, so no webhook leaves the machine: the host's
/// own address at a path no route has (`webhookReceiver`). The dispatcher's POSTs there answer 404
/// `not_found`, so events stay `pending`, retry on the sandbox clock and log attempts with a status,
/// a latency and a response excerpt, which the log's schema then sees.
extension HostUnderTest {
    /// A receiver on the host itself that answers every delivery 404.
    var webhookReceiver: String { base + "/conformance/webhook-receiver" }

    /// Callback URLs a sale or the merchant settings take on the sandbox flavour (loopback, http or
    /// https) and ones they refuse (private addresses, not https, not absolute). None leaves 127.0.0.1.
    var callbackURLs: [String] {
        [webhookReceiver, "https://127.0.0.1:1/webhooks", "http://10.0.0.8/webhooks", "https://192.168.1.20/webhooks",
         "webhooks"]
    }

    /// `PUT /backoffice/v1/merchants/{merchantId}/webhook`.
    func setWebhook(merchant: String, url: String?, scheme: String = "monei", _ fixtures: Fixtures) throws {
        try expect(
            200, "PUT", "/backoffice/v1/merchants/\(merchant)/webhook", body: ["url": url ?? NSNull(), "scheme": scheme],
            bearer: fixtures.backOfficeKey)
    }

    /// `POST /_sandbox/webhooks/trigger`: the new event's id.
    func triggerWebhook(_ event: String, merchant: String? = nil) throws -> String {
        var body: [String: Any] = ["event": event]
        if let merchant { body["merchantId"] = merchant }
        let answer = try expect(202, "POST", "/_sandbox/webhooks/trigger", body: body)
        guard let id = answer["eventId"] as? String else {
            throw HarnessError("POST /_sandbox/webhooks/trigger gave no eventId: \(answer)")
        }
        return id
    }

    /// Sample events of every type for `merchant` (its endpoint set to `webhookReceiver`), with
    /// their first delivery attempts made: ids for the log, event and replay operations.
    func sampleWebhookEvents(merchant: String, scheme: String = "monei", _ fixtures: Fixtures) throws -> [String] {
        try setWebhook(merchant: merchant, url: webhookReceiver, scheme: scheme, fixtures)
        let ids = try ConformanceTests.webhookEventTypes.map { try triggerWebhook($0, merchant: merchant) }
        try waitForAttempts(ids, fixtures)
        return ids
    }

    /// Waits (at most 60 s) until each event has had a delivery attempt.
    func waitForAttempts(_ ids: [String], _ fixtures: Fixtures) throws {
        for id in ids {
            var event: [String: Any] = [:]
            let tried = eventuallyBlocking {
                event = (try? expect(200, "GET", "/backoffice/v1/webhooks/events/\(id)", bearer: fixtures.backOfficeKey)) ?? [:]
                return (event["attempts"] as? Int ?? 0) > 0
            }
            guard tried else { throw HarnessError("webhook event \(id) had no delivery attempt after 60 s: \(event)") }
        }
    }
}

extension ConformanceTests {
    static let webhookEventTypes = ["payment.succeeded", "payment.failed", "payment.canceled", "refund.succeeded", "refund.failed"]

    /// The merchant a sample webhook without `merchantId` is for: the one whose id sorts first.
    static func defaultSampleMerchant(_ fixtures: Fixtures) -> String { fixtures.merchants.map(\.id).sorted()[0] }

    /// Sends `payloads` (JSON texts) through the document's `components.schemas.WebhookEvent`,
    /// converted from OpenAPI 3.0 to JSON Schema as schemathesis converts response schemas.
    /// Returns one line per payload that does not conform, naming the payload and the error.
    static func webhookPayloadViolations(_ payloads: [(label: String, json: String)]) throws -> [String] {
        let script = """
            import json, sys
            import jsonschema, yaml
            from schemathesis.specs.openapi.converter import to_json_schema
            document = yaml.safe_load(open(sys.argv[1]))
            schemas = {name: to_json_schema(schema, "nullable", is_response_schema=True)
                       for name, schema in document["components"]["schemas"].items()}
            root = {"$ref": "#/components/schemas/WebhookEvent", "components": {"schemas": schemas}}
            validator = jsonschema.Draft4Validator(root)
            for item in json.load(open(sys.argv[2])):
                try:
                    payload = json.loads(item["json"])
                except ValueError as error:
                    print(f"{item['label']}: the payload is not JSON ({error}): {item['json']}")
                    continue
                errors = sorted(validator.iter_errors(payload), key=lambda e: (list(map(str, e.absolute_path)), e.message))
                if errors:
                    found = "; ".join(f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in errors)
                    print(f"{item['label']}: {found}. Payload: {item['json']}")
            """
        let python = try #require(onPath("python3"), "python3 is needed; run scripts/setup")
        let scratch = TemporaryDirectory()
        let input = scratch.file("payloads.json")
        try JSONSerialization.data(withJSONObject: payloads.map { ["label": $0.label, "json": $0.json] }).write(to: input)
        let result = try Schemathesis.capture(
            [python.path, "-c", script, Paths.openAPI.appendingPathComponent("environment-host.yaml").path, input.path])
        guard result.status == 0 else { throw HarnessError("validating webhook payloads failed:\n\(result.output)") }
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test("webhook events carry the document's WebhookEvent payload")
    func webhookPayloadsConformToTheDocument() throws {
        _ = try Schemathesis.server()
        let host = try HostUnderTest()
        let fixtures = try Fixtures.load()
        // Samples of every type, and real payments: a cleared sale naming a callbackUrl (its event goes
        // there), a sale whose card screen was cancelled, a DCC sale the customer took in their
        // currency, then reversed; and a sale whose callbackUrl is refused (422, no payment).
        var events = try host.sampleWebhookEvents(merchant: Self.defaultSampleMerchant(fixtures), fixtures)
            .map { (label: "sample", id: $0) }
        guard let terminal = fixtures.terminals.first(where: { $0.isPlain && $0.registerOptions.contains("portal") }) else {
            throw HarnessError("merchants.json: no plain terminal takes portal registration")
        }
        try host.setWebhook(merchant: terminal.merchantID, url: host.webhookReceiver, scheme: "standard", fixtures)
        let device = try PaymentDevice(host: host, terminal: terminal, device: "conformance-webhook-device", pin: "1357", fixtures)
        let now = try device.hostNow()
        var sales: [(label: String, id: String)] = []
        let callbackURL = host.webhookReceiver + "?sale=1"
        sales.append(
            ("sale with callbackUrl",
             try device.sale(
                1000, ["cardPayload": try device.cardPayload("visa", readAt: now), "reference": "conformance-webhook",
                       "callbackUrl": callbackURL],
                expected: "CLEARED")))
        sales.append(("cancelled card screen", try device.sale(1000, ["readerOutcome": "cancelled"], expected: "USER_CANCELLED")))
        // A refused callbackUrl (not https off loopback) creates no payment: 422 outcome_unknown, which the
        // sale pass seldom reaches (its first sale without a card keeps the terminal busy).
        let last = try host.expect(200, "GET", "/terminal/v1/transactions/last", bearer: device.token)["transactionId"] as? String
        let refused = try host.call(
            "POST", "/terminal/v1/transactions/sale",
            body: [
                "currency": device.currency, "requestedAmount": 1000, "readerOutcome": "cancelled",
                "callbackUrl": "http://10.0.0.8/webhooks",
            ],
            bearer: device.token)
        let error = refused.json["error"] as? [String: Any]
        #expect(
            refused.status == 422 && error?["code"] as? String == "outcome_unknown" && error?["field"] as? String == "callbackUrl",
            "a sale with a refused callbackUrl answered \(refused.status) \(refused.text), not 422 outcome_unknown naming callbackUrl")
        let after = try host.expect(200, "GET", "/terminal/v1/transactions/last", bearer: device.token)["transactionId"] as? String
        #expect(after == last, "a sale with a refused callbackUrl left transaction \(after ?? "nil") behind")
        let dcc = try device.sale(2000, ["cardPayload": try device.cardPayload("visa-us-dcc", readAt: now)], expected: "DCC_REQUIRED")
        try device.transaction("/terminal/v1/transactions/\(dcc)/dcc", ["dccOfferAccepted": true], status: 200, expected: "CLEARED")
        try device.transaction(
            "/terminal/v1/transactions/\(dcc)/reversal", ["isCancelledByUser": false], status: 200, expected: "CANCELLED")
        sales.append(("DCC sale, then reversed", dcc))
        let log = try host.expect(200, "GET", "/backoffice/v1/webhooks/events?limit=500", bearer: fixtures.backOfficeKey)
        let written = (log["events"] as? [[String: Any]] ?? []).compactMap { event -> (String, String)? in
            guard let id = event["id"] as? String, let transaction = event["transactionId"] as? String else { return nil }
            return (transaction, id)
        }
        // The log names each event's payment with its amount, so a tester reads it without opening the payload.
        for event in log["events"] as? [[String: Any]] ?? [] where sales.contains(where: { $0.1 == event["transactionId"] as? String }) {
            #expect(
                (event["amount"] as? Int ?? 0) > 0 && (event["currency"] as? String)?.count == 3,
                "the event \(event["id"] ?? "?") of a stored payment has no amount and currency: \(event)")
        }
        for (label, transaction) in sales {
            let ids = written.filter { $0.0 == transaction }.map(\.1)
            #expect(!ids.isEmpty, "the \(label) (\(transaction)) wrote no webhook event")
            events += ids.map { (label: "\(label) \(transaction)", id: $0) }
        }
        var payloads: [(label: String, json: String)] = []
        for (label, id) in events {
            let event = try host.expect(200, "GET", "/backoffice/v1/webhooks/events/\(id)", bearer: fixtures.backOfficeKey)
            let payload = try #require(event["payload"] as? String, "GET …/webhooks/events/\(id) has no payload: \(event)")
            if label.hasPrefix("sale with callbackUrl") {
                #expect(event["url"] as? String == callbackURL, "the event of a sale naming a callbackUrl went elsewhere: \(event)")
            }
            payloads.append(("\(label) event \(id) (\(event["type"] as? String ?? "?"))", payload))
        }
        let violations = try Self.webhookPayloadViolations(payloads)
        let conforming = violations.isEmpty
        #expect(
            conforming,
            """
            \(violations.count) of \(payloads.count) webhook payloads do not conform to components.schemas.WebhookEvent of \
            openapi/environment-host.yaml (docs/webhooks.md):
            \(violations.joined(separator: "\n"))
            """)
    }
}
