import Foundation
import SandboxCrypto
import Testing
import WebhookSignature

/// A backend keeps one verifier per secret and calls it from every request thread.
@Suite("one verifier, many requests")
struct SharedVerifierTests {
    @Test("one verifier used from many threads at once accepts each genuine webhook and refuses each forged one")
    func concurrent() async throws {
        for scheme in WebhookScheme.allCases {
            let secret = scheme == .monei ? Sample.apiKey : Sample.secret
            let verifier = try WebhookVerifier(scheme: scheme, secret: secret, clock: { Sample.timestamp })
            let bodies = (0..<32).map { index in Array(#"{"id":"evt_\#(index)","padding":"\#(String(repeating: "x", count: index * 53))"}"#.utf8) }
            let headers = try bodies.indices.map { index in try signed(scheme, body: bodies[index], id: "msg_\(index)") }
            let outcomes = await withTaskGroup(of: (genuine: Bool, forgedRefused: Bool).self) { group in
                for round in 0..<8 {
                    for index in bodies.indices {
                        group.addTask {
                            let genuine = (try? verifier.verify(headers: headers[index], body: bodies[index]))
                                == VerifiedWebhook(scheme: scheme, id: scheme == .standard ? "msg_\(index)" : nil, timestamp: Sample.timestamp)
                            // Another webhook's signature on this body.
                            let other = headers[(index + round + 1) % bodies.count]
                            let forged = failure { try verifier.verify(headers: other, body: bodies[index]) }
                            return (genuine, forged == .noMatchingSignature)
                        }
                    }
                }
                var outcomes: [(genuine: Bool, forgedRefused: Bool)] = []
                for await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            #expect(outcomes.count == 8 * bodies.count)
            #expect(outcomes.allSatisfy { $0.genuine && $0.forgedRefused }, "\(scheme)")
        }
    }

    @Test("spaces and tabs around header values are ignored, and the id comes back without them")
    func blanksAroundValues() throws {
        var headers = try signed(.standard)
        headers = headers.mapValues { " \t" + $0 + "  " }
        let verified = try WebhookVerifier.verify(scheme: .standard, headers: headers, body: Sample.body, secret: Sample.secret, now: Sample.timestamp)
        #expect(verified == VerifiedWebhook(scheme: .standard, id: Sample.id, timestamp: Sample.timestamp))
        let monei = try signed(.monei).mapValues { "\t" + $0.replacingOccurrences(of: ",", with: " , ") + " " }
        try WebhookVerifier.verify(scheme: .monei, headers: monei, body: Sample.body, secret: Sample.apiKey, now: Sample.timestamp)
    }

    @Test(
        "the signed prefix is the id and timestamp as text, for short and long ids and every timestamp width",
        arguments: [("msg_1", 0), ("m", 7), ("msg_1", 1_700_000_000), ("msg_" + String(repeating: "a", count: 2000), 999_999_999_999_999_999)])
    func signedPrefix(id: String, timestamp: Int) throws {
        let key = try Base64.decode(Sample.secret.dropFirst("whsec_".count))
        // Built independently of the library: the one-shot HMAC over the concatenated string.
        let standard = "v1," + Base64.encode(HMACSHA256.authenticate(key: key, message: Array("\(id).\(timestamp).".utf8) + Sample.body))
        let headers = try signed(.standard, id: id, timestamp: timestamp)
        #expect(headers["webhook-signature"] == standard)
        let verified = try WebhookVerifier.verify(
            scheme: .standard, headers: headers, body: Sample.body, secret: Sample.secret, now: timestamp)
        #expect(verified.id == id)

        let mac = HMACSHA256.authenticate(key: Array(Sample.apiKey.utf8), message: Array("\(timestamp).".utf8) + Sample.body)
        let monei = try signed(.monei, timestamp: timestamp)
        #expect(monei["MONEI-Signature"] == "t=\(timestamp),v1=" + Hex.encode(mac))
        try WebhookVerifier.verify(scheme: .monei, headers: monei, body: Sample.body, secret: Sample.apiKey, now: timestamp)
    }
}
