import Foundation
import SandboxCrypto
import SandboxTestSupport
import Testing
import WebhookSignature

/// Both directions against the reference implementations: Stripe's Python library (the same
/// `t=,v1=` construction as MONEI-Signature) and the Standard Webhooks Python library.
/// The packages come from scripts/setup.
@Suite("cross-checks with Python stripe and standardwebhooks", .blocksThreads)
struct PythonCrossCheckTests {
    static let body = Array(#"{"id":"evt_42","type":"payment.succeeded","merchant":"Café Ωmega","amount":1050}"#.utf8)

    /// Runs a Python snippet with the body (base64) and other values in its environment.
    static func python(_ code: String, _ values: [String: String]) throws -> ProcessOutput {
        try runProcess("python3", ["-c", code], environment: values.merging(["BODY": Base64.encode(body)]) { $1 })
    }

    @Test("stripe.WebhookSignature.verify_header accepts our MONEI-Signature, and refuses it for another body")
    func stripeVerifiesOurs() throws {
        try requirePythonPackages()
        let now = currentUnixTime()
        let header = try #require(dictionary(try WebhookSigner.headers(scheme: .monei, id: "", timestamp: now, body: Self.body, secret: Sample.apiKey))["MONEI-Signature"])
        let code = """
            import base64, os, stripe
            body = base64.b64decode(os.environ["BODY"]) + os.environ.get("EXTRA", "").encode()
            # Stripe reads the same value from its own header name: Stripe-Signature.
            stripe.WebhookSignature.verify_header(body, os.environ["HEADER"], os.environ["KEY"], 300)
            print("ok")
            """
        let accepted = try Self.python(code, ["HEADER": header, "KEY": Sample.apiKey])
        #expect(accepted.status == 0, "\(accepted)")
        #expect(accepted.stdout == "ok\n")
        let tampered = try Self.python(code, ["HEADER": header, "KEY": Sample.apiKey, "EXTRA": " "])
        #expect(tampered.status != 0)
        #expect(tampered.stderr.contains("SignatureVerificationError"), "\(tampered)")
    }

    @Test("our verifier accepts stripe's generate_signature_header, renamed to MONEI-Signature")
    func weVerifyStripes() throws {
        try requirePythonPackages()
        let now = currentUnixTime()
        let generated = try Self.python(
            """
            import base64, os, stripe
            payload = base64.b64decode(os.environ["BODY"]).decode("utf-8")
            print(stripe.WebhookSignature.generate_signature_header(payload, os.environ["KEY"], int(os.environ["NOW"])))
            """, ["KEY": Sample.apiKey, "NOW": String(now)])
        #expect(generated.status == 0, "\(generated)")
        let header = generated.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(header.hasPrefix("t=\(now),v1="))
        let verified = try WebhookVerifier.verify(scheme: .monei, headers: ["MONEI-Signature": header], body: Self.body, secret: Sample.apiKey, now: now)
        #expect(verified.timestamp == now)
        #expect(
            failure { try WebhookVerifier.verify(scheme: .monei, headers: ["MONEI-Signature": header], body: Self.body, secret: "pk_wrong", now: now) }
                == .noMatchingSignature)
    }

    @Test("standardwebhooks.Webhook(secret).verify accepts our headers, and refuses them for another body")
    func standardWebhooksVerifiesOurs() throws {
        try requirePythonPackages()
        let headers = dictionary(
            try WebhookSigner.headers(scheme: .standard, id: "msg_cross_1", timestamp: currentUnixTime(), body: Self.body, secret: Sample.secret))
        let code = """
            import base64, json, os, standardwebhooks
            body = base64.b64decode(os.environ["BODY"]) + os.environ.get("EXTRA", "").encode()
            event = standardwebhooks.Webhook(os.environ["SECRET"]).verify(body, json.loads(os.environ["HEADERS"]))
            print(event["id"])
            """
        let headersJSON = String(decoding: try JSONSerialization.data(withJSONObject: headers), as: UTF8.self)
        let accepted = try Self.python(code, ["SECRET": Sample.secret, "HEADERS": headersJSON])
        #expect(accepted.status == 0, "\(accepted)")
        #expect(accepted.stdout == "evt_42\n")
        let tampered = try Self.python(code, ["SECRET": Sample.secret, "HEADERS": headersJSON, "EXTRA": " "])
        #expect(tampered.status != 0)
        #expect(tampered.stderr.contains("No matching signature"), "\(tampered)")
    }

    @Test("our verifier accepts standardwebhooks' sign(msg_id, timestamp, data)")
    func weVerifyStandardWebhooks() throws {
        try requirePythonPackages()
        let now = currentUnixTime()
        let generated = try Self.python(
            """
            import base64, datetime, os, standardwebhooks
            data = base64.b64decode(os.environ["BODY"]).decode("utf-8")
            when = datetime.datetime.fromtimestamp(int(os.environ["NOW"]), tz=datetime.timezone.utc)
            print(standardwebhooks.Webhook(os.environ["SECRET"]).sign("msg_cross_2", when, data))
            """, ["SECRET": Sample.secret, "NOW": String(now)])
        #expect(generated.status == 0, "\(generated)")
        let signature = generated.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(signature.hasPrefix("v1,"))
        let headers = ["webhook-id": "msg_cross_2", "webhook-timestamp": String(now), "webhook-signature": signature]
        let verified = try WebhookVerifier.verify(scheme: .standard, headers: headers, body: Self.body, secret: Sample.secret, now: now)
        #expect(verified == VerifiedWebhook(scheme: .standard, id: "msg_cross_2", timestamp: now))
        #expect(
            failure {
                try WebhookVerifier.verify(scheme: .standard, headers: headers, body: Self.body, secret: "whsec_c29tZW9uZSBlbHNl", now: now)
            } == .noMatchingSignature)
    }
}
