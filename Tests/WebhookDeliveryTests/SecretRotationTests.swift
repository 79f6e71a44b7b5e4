import Foundation
import Testing
import SandboxTestSupport
import WebhookSignature

/// Rotating a merchant's Standard Webhooks secret: during the overlap every delivery carries a
/// signature under each secret, so a receiver verifies with whichever it holds; after it, only the
/// new one signs.
@Suite(.blocksThreads) struct SecretRotationTests {
    /// Whether Python's `standardwebhooks` verifies the delivery with `secret`.
    static func pythonVerifies(_ received: Receiver.Received, secret: String) throws -> Bool {
        let script = """
            import base64, json, os
            from standardwebhooks.webhooks import Webhook
            headers = json.loads(os.environ["HEADERS"])
            try:
                Webhook(os.environ["SECRET"]).verify(base64.b64decode(os.environ["BODY"]), headers)
                print("valid")
            except Exception as error:
                print("invalid", error)
            """
        let output = try SpawnedProcess.run(
            "python3", ["-c", script],
            environment: [
                "HEADERS": String(decoding: try JSONSerialization.data(withJSONObject: received.headers), as: UTF8.self),
                "SECRET": secret, "BODY": Data(received.body).base64EncodedString(),
            ])
        return output.stdout.hasPrefix("valid")
    }

    @Test func bothSecretsVerifyDuringTheOverlapAndOnlyTheNewOneAfter() async throws {
        let host = try TestHost()
        defer { host.stop() }
        let receiver = try Receiver(answering: 200)
        await host.setWebhook(EU.merchant2, url: receiver.hookURL, scheme: "standard")
        let old = try #require(await host.webhookSettings(EU.merchant2).string("secret"))

        let rotated = await host.api.call(
            "POST", "/backoffice/v1/merchants/\(EU.merchant2)/webhook/rotate-secret", bearer: host.backOfficeKey,
            body: ["overlapSeconds": 3600])
        #expect(rotated.status == 200, "\(rotated)")
        let new = try #require(rotated.string("secret"))
        #expect(new != old && new.hasPrefix("whsec_"))
        #expect(rotated.string("previousSecret") == old && rotated.string("previousSecretExpiresAt") != nil)

        let during = try await host.trigger("payment.succeeded", merchant: EU.merchant2)
        await host.waitForState(during, "delivered", "delivered during the overlap")
        let first = try #require(receiver.attempts(of: during).last)
        #expect(first.headers["webhook-signature"]?.split(separator: " ").count == 2)
        for secret in [old, new] {
            #expect(throws: Never.self) {
                try WebhookVerifier.verify(scheme: .standard, headers: first.headers, body: first.body, secret: secret)
            }
            #expect(try Self.pythonVerifies(first, secret: secret), "standardwebhooks with \(secret.prefix(10))…")
        }

        // An hour later on the host clock, the old secret no longer signs.
        await host.advance(3601)
        #expect(await host.webhookSettings(EU.merchant2).string("previousSecret") == nil)
        let after = try await host.trigger("payment.succeeded", merchant: EU.merchant2)
        await host.waitForState(after, "delivered", "delivered after the overlap")
        let second = try #require(receiver.attempts(of: after).last)
        #expect(second.headers["webhook-signature"]?.split(separator: " ").count == 1)
        #expect(try Self.pythonVerifies(second, secret: new))
        #expect(try !Self.pythonVerifies(second, secret: old))

        let refused = await host.api.call(
            "POST", "/backoffice/v1/merchants/\(EU.merchant2)/webhook/rotate-secret", bearer: host.backOfficeKey,
            body: ["overlapSeconds": -1])
        #expect(refused.status == 400 && refused.errorField == "overlapSeconds", "\(refused)")
    }
}
