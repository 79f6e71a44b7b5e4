import Foundation
import SandboxTestSupport
import Testing

@Suite("callbackUrl: where a payment's webhook goes, and the URLs a flavour refuses")
struct CallbackURLTests {
    @Test("sandbox flavour: http://127.0.0.1 is accepted and the payment's event goes there, not to the merchant's endpoint")
    func sandboxLoopbackAccepted() async throws {
        let host = try TestHost(flavour: .sandbox, dispatches: false)
        defer { host.stop() }
        let merchantReceiver = try Receiver(answering: 200)
        let callbackReceiver = try Receiver(answering: 200)
        await host.setWebhook(EU.merchant1, url: merchantReceiver.hookURL)
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)
        let withCallback = try await device.clearedSale(1000, callbackUrl: callbackReceiver.callbackURL, "sale with callbackUrl http://127.0.0.1")
        // Its reversal follows the payment's callbackUrl too.
        expectReply(await device.reversal(withCallback), 200, nil, "reverse it")
        let plain = try await device.clearedSale(1100, "sale without callbackUrl")
        // localhost (http) too.
        let port = callbackReceiver.port
        let viaLocalhost = try await device.clearedSale(1200, callbackUrl: "http://localhost:\(port)/callback", "sale with callbackUrl http://localhost")

        // Everything due is sent, and then nothing more is due.
        host.deliverAllDue()
        #expect(host.deliverDue() == 0)
        let atCallback = callbackReceiver.application.map { "\($0.paymentId ?? "?") \($0.type ?? "?")" }
        #expect(
            atCallback.sorted() == ["\(withCallback) payment.succeeded", "\(withCallback) payment.canceled", "\(viaLocalhost) payment.succeeded"].sorted(),
            "at the callbackUrl: \(atCallback)")
        #expect(callbackReceiver.received.allSatisfy { $0.path == "/callback" })
        let atMerchant = merchantReceiver.application.map { "\($0.paymentId ?? "?") \($0.type ?? "?")" }
        #expect(atMerchant == ["\(plain) payment.succeeded"], "at the merchant's endpoint: \(atMerchant)")
        // Signed as the merchant's scheme says (MONEI, apiKey), wherever it goes.
        let key = try EU.apiKey(EU.merchant1)
        for event in callbackReceiver.received {
            #expect(throws: Never.self) {
                try WebhookSignatureCheck.monei(event, key: key)
            }
        }
    }

    @Test("sandbox flavour: http to a non-loopback host and private addresses are refused (422 outcome_unknown, no payment)")
    func sandboxRefusals() async throws {
        let host = try TestHost(flavour: .sandbox)
        defer { host.stop() }
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)
        for url in ["http://example.com/hook", "https://10.0.0.8/hook", "https://192.168.1.20/hook", "not a url"] {
            try await expectRefused(device, url)
        }
    }

    @Test("prod flavour: http, loopback, private addresses and URLs over 2048 characters are refused with 422 outcome_unknown and no transaction; https://example.invalid is accepted")
    func prodRules() async throws {
        let host = try TestHost(flavour: .prod)
        defer { host.stop() }
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)
        let long = "https://example.com/" + String(repeating: "a", count: 2049 - "https://example.com/".count)
        #expect(long.count == 2049)
        let refused = [
            "http://example.com/hook",  // not https
            "http://127.0.0.1:8787/hook",  // loopback over http (fine on sandbox, not here)
            "https://127.0.0.1/hook", "https://localhost/hook", "https://[::1]/hook",  // loopback
            "https://10.1.2.3/hook", "https://192.168.0.10/hook", "https://172.16.0.5/hook", "https://172.31.255.1/hook",  // private
            long,
        ]
        for url in refused { try await expectRefused(device, url) }

        // Exactly 2048 characters and a public https host are fine.
        let longest = "https://example.invalid/" + String(repeating: "b", count: 2048 - "https://example.invalid/".count)
        #expect(longest.count == 2048)
        let before = await device.count("before the accepted sales")
        let accepted = try await device.clearedSale(1000, callbackUrl: "https://example.invalid/hook", "sale with callbackUrl https://example.invalid")
        _ = try await device.clearedSale(1000, callbackUrl: longest, "sale with a 2048-character callbackUrl")
        #expect(await device.count("after the accepted sales") == before + 2)
        // 172.32.x is public: accepted.
        _ = try await device.clearedSale(1000, callbackUrl: "https://172.32.0.1/hook", "sale with callbackUrl https://172.32.0.1")
        let logged = await host.events()
        let event = logged.first { $0["transactionId"] as? String == accepted }
        #expect(event?["url"] as? String == "https://example.invalid/hook", "the event goes to the callbackUrl: \(logged)")

        // The merchant's endpoint follows the same rules on prod.
        await host.setWebhook(EU.merchant1, url: "http://127.0.0.1:9/hook", expect: 400)
        await host.setWebhook(EU.merchant1, url: "https://10.0.0.1/hook", expect: 400)
        await host.setWebhook(EU.merchant1, url: "https://example.invalid/hook", expect: 200)
    }

    @Test("prod flavour: public host names that merely start like IPv6 private prefixes (fc…, fd…, fe8…) are accepted")
    func prodPublicHostNames() async throws {
        let host = try TestHost(flavour: .prod)
        defer { host.stop() }
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)
        for url in ["https://fdic.example/hook", "https://fcbarcelona.example/hook", "https://feature.example/hook"] {
            let reply = try await device.sale(1000, callbackUrl: url)
            #expect(reply.status == 201, "a public host name was refused as a private address: \(url) → \(reply)")
        }
    }

    @Test("prod flavour: loopback and private addresses in other spellings are refused too (127.1, decimal, IPv4-mapped IPv6, fc00::/7)")
    func prodOtherSpellings() async throws {
        let host = try TestHost(flavour: .prod)
        defer { host.stop() }
        let device = try await Device.open(host.api, backOfficeKey: host.backOfficeKey, terminal: EU.terminal1)
        for url in [
            "https://127.1/hook", "https://2130706433/hook", "https://0x7f000001/hook", "https://[::ffff:127.0.0.1]/hook",
            "https://[::ffff:10.0.0.1]/hook", "https://[fd00::1]/hook", "https://localhost./hook", "https://0.0.0.0/hook",
        ] {
            try await expectRefused(device, url)
        }
    }

    /// A sale with `url` as callbackUrl: 422 outcome_unknown (field callbackUrl), no transaction created.
    private func expectRefused(_ device: Device, _ url: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let shown = url.count > 80 ? String(url.prefix(40)) + "… (\(url.count) characters)" : url
        let before = await device.count("before callbackUrl \(shown)", sourceLocation: sourceLocation)
        let reply = try await device.sale(1000, callbackUrl: url, sourceLocation: sourceLocation)
        #expect(
            reply.status == 422 && reply.errorCode == "outcome_unknown",
            "callbackUrl \(shown): expected 422 outcome_unknown; got \(reply)", sourceLocation: sourceLocation)
        let after = await device.count("after callbackUrl \(shown)", sourceLocation: sourceLocation)
        #expect(after == before, "callbackUrl \(shown): a refused sale left a transaction (count \(before) → \(after))", sourceLocation: sourceLocation)
    }
}
