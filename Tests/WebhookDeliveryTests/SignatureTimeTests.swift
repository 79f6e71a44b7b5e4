import Foundation
import SandboxCore
import SandboxTestSupport
import Testing

/// A webhook's signature is dated with real time (the receiver checks it against its own clock);
/// its payload and the retry schedule follow the sandbox clock.
@Suite("Webhook signatures in real time, payloads and retries on the sandbox clock", .blocksThreads)
struct SignatureTimeTests {
    /// Three months of sandbox time, as a tester moves it to reach a certificate's expiry.
    static let threeMonths = 92 * 86_400

    @Test("after the sandbox clock moved 3 months, a sale's and a sample's webhooks verify with Python stripe and standardwebhooks at their default tolerance, and with webhooks verify")
    func verifiesAfterTheClockMoved() async throws {
        let probe = try SpawnedProcess.run("python3", ["-c", "import stripe, standardwebhooks"])
        try #require(probe.status == 0, "the Python packages stripe and standardwebhooks are missing: run scripts/setup\n\(probe)")
        let webhooks = try #require(Paths.executable("webhooks"), "webhooks is not built; run `swift build --build-tests`")
        // Before the host starts: its sandbox clock stands still at its start.
        let before = Date()
        let host = try TestHost()
        defer { host.stop() }
        let receiver = try Receiver(answering: 200)
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        await host.setWebhook(EU.merchant2, url: receiver.hookURL, scheme: "standard")
        let secret = try #require(await host.webhookSettings(EU.merchant2).string("secret"))
        let apiKey = try EU.apiKey(EU.merchant1)

        await host.advance(Self.threeMonths)
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)
        let sale = try await device.clearedSale(1250, "a sale three months on")
        let sample = try await host.trigger("refund.succeeded", merchant: EU.merchant2)
        #expect(
            await eventually(60) { receiver.application.contains { $0.paymentId == sale } && receiver.deliveredIds.contains(sample) },
            "events received: \(receiver.received.map { "\($0.type ?? "?") \($0.answered)" })")
        let monei = try #require(receiver.application.first { $0.paymentId == sale })
        let standard = try #require(receiver.application.first { $0.eventId == sample })

        // The payload's own time is the sandbox clock's: three months on.
        let created = try #require((monei.json["created"] as? NSNumber)?.doubleValue, "\(monei.json)")
        #expect(created >= before.timeIntervalSince1970 + Double(Self.threeMonths) - 5, "created \(created) is not on the moved sandbox clock")

        // The reference implementations, each at its default tolerance (300 s); stripe only refuses
        // timestamps in the past, standardwebhooks also those in the future.
        let moneiHeader = try #require(monei.headers["monei-signature"], "\(monei.headers)")
        let standardHeaders = standard.headers.filter { $0.key.hasPrefix("webhook-") }
        let script = """
            import base64, json, os, standardwebhooks, stripe
            monei = base64.b64decode(os.environ["MONEI_BODY"])
            stripe.WebhookSignature.verify_header(monei, os.environ["MONEI_HEADER"], os.environ["API_KEY"], stripe.Webhook.DEFAULT_TOLERANCE)
            standard = base64.b64decode(os.environ["STANDARD_BODY"])
            event = standardwebhooks.Webhook(os.environ["SECRET"]).verify(standard, json.loads(os.environ["STANDARD_HEADERS"]))
            print("verified", event["id"])
            """
        let python = try SpawnedProcess.run(
            "python3", ["-c", script],
            environment: [
                "MONEI_BODY": Data(monei.body).base64EncodedString(), "MONEI_HEADER": moneiHeader, "API_KEY": apiKey,
                "STANDARD_BODY": Data(standard.body).base64EncodedString(), "SECRET": secret,
                "STANDARD_HEADERS": String(decoding: try JSONSerialization.data(withJSONObject: standardHeaders), as: UTF8.self),
            ])
        #expect(python.status == 0 && python.stdout == "verified \(sample)\n", "\(python)")

        // The CLI, on the system clock and its default tolerance.
        let moneiCLI = try SpawnedProcess.run(
            webhooks.path, ["verify", "--secret", apiKey, "--header", "MONEI-Signature: \(moneiHeader)"], stdin: monei.body)
        #expect(moneiCLI.status == 0 && moneiCLI.stdout.hasPrefix("valid: monei t="), "\(moneiCLI)")
        let standardCLI = try SpawnedProcess.run(
            webhooks.path,
            ["verify", "--scheme", "standard", "--secret", secret] + standardHeaders.flatMap { ["--header", "\($0.key): \($0.value)"] },
            stdin: standard.body)
        #expect(standardCLI.status == 0 && standardCLI.stdout.hasPrefix("valid: standard t="), "\(standardCLI)")
    }

    @Test("each attempt is signed with the wall clock's time at that attempt; the retry falls due on the sandbox clock; the body never changes")
    func signedWithTheInjectedWallClock() async throws {
        let wall = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
        // Before the host starts: its sandbox clock stands still at its start.
        let before = Date()
        let host = try TestHost(wallClock: wall)
        defer { host.stop() }
        // 503 with an hour's Retry-After: the retry is due only when the test moves the sandbox clock
        // (the schedule's first 5 s could pass in real time on a loaded machine, racing the wall clock).
        let receiver = try Receiver(answering: 503)
        receiver.answer(503, retryAfter: "3600")
        await host.setWebhook(EU.merchant1, url: receiver.hookURL)
        await host.setWebhook(EU.merchant2, url: receiver.hookURL, scheme: "standard")
        await host.advance(Self.threeMonths)
        let monei = try await host.trigger("payment.succeeded", merchant: EU.merchant1)
        let standard = try await host.trigger("payment.failed", merchant: EU.merchant2)
        await host.waitForAttempts(monei, 1, "first MONEI attempt")
        await host.waitForAttempts(standard, 1, "first Standard Webhooks attempt")

        // An hour of real time later, the receiver recovers; an hour of sandbox time makes the retries due.
        wall.advance(by: 3_600)
        receiver.answer(200)
        await host.advance(3_605)
        await host.waitForState(monei, "delivered", "MONEI event delivered on the retry")
        await host.waitForState(standard, "delivered", "Standard Webhooks event delivered on the retry")

        let moneiAttempts = receiver.attempts(of: monei)
        #expect(
            moneiAttempts.map { $0.headers["monei-signature"]?.split(separator: ",").first.map(String.init) }
                == ["t=1700000000", "t=1700003600"],
            "MONEI-Signature of each attempt: \(moneiAttempts.map { $0.headers["monei-signature"] ?? "none" })")
        let standardAttempts = receiver.attempts(of: standard)
        #expect(
            standardAttempts.map { $0.headers["webhook-timestamp"] } == ["1700000000", "1700003600"],
            "webhook-timestamp of each attempt: \(standardAttempts.map { $0.headers["webhook-timestamp"] ?? "none" })")
        for attempts in [moneiAttempts, standardAttempts] {
            #expect(Set(attempts.map(\.body)).count == 1, "the body changed between attempts")
            // `created` is the sandbox clock's, three months ahead of real time, not the wall clock's.
            let created = (attempts.first?.json["created"] as? NSNumber)?.doubleValue ?? 0
            #expect(
                created >= before.timeIntervalSince1970 + Double(Self.threeMonths) - 5, "created \(created): not on the sandbox clock")
        }
    }
}
