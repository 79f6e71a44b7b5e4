import Foundation
import SandboxCrypto
import Testing
import WebhookSignature

/// Whatever the body, what the signer signs the verifier accepts, and one flipped bit it refuses.
@Suite("sign → verify round trips")
struct RoundTripTests {
    static let bodies: [(name: String, bytes: [UInt8])] = [
        ("UTF-8", Array(#"{"merchant":"Café Ωmega ☕️","amount":1050,"note":"zażółć gęślą jaźń"}"#.utf8)),
        ("binary", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }),
        ("empty", []),
        ("10 MiB", [UInt8](repeating: UInt8(ascii: "x"), count: 10 << 20)),
    ]

    @Test("round trip", arguments: WebhookScheme.allCases, bodies.indices)
    func roundTrip(scheme: WebhookScheme, bodyIndex: Int) throws {
        let body = Self.bodies[bodyIndex].bytes
        let secret = scheme == .monei ? "pk_live_" + Hex.encode(SecureRandom.bytes(count: 16)) : WebhookSigner.newStandardSecret()
        let id = WebhookSigner.newMessageID()
        let now = 1_750_000_000
        let headers = dictionary(try WebhookSigner.headers(scheme: scheme, id: id, timestamp: now, body: body, secret: secret))
        let verified = try WebhookVerifier.verify(scheme: scheme, headers: headers, body: body, secret: secret, now: now)
        #expect(verified.timestamp == now)
        #expect(verified.id == (scheme == .standard ? id : nil))

        guard !body.isEmpty else {
            #expect(failure { try WebhookVerifier.verify(scheme: scheme, headers: headers, body: [0], secret: secret, now: now) } == .noMatchingSignature)
            return
        }
        for index in [0, body.count / 2, body.count - 1] {
            var flipped = body
            flipped[index] ^= 0x01
            #expect(
                failure { try WebhookVerifier.verify(scheme: scheme, headers: headers, body: flipped, secret: secret, now: now) }
                    == .noMatchingSignature, "\(Self.bodies[bodyIndex].name): bit flipped at \(index)")
        }
    }

    @Test("the verifier's prepared key gives HMACSHA256's MAC for keys of every length around a block")
    func preparedKeyMatchesHMAC() throws {
        for length in [1, 31, 32, 63, 64, 65, 128, 200] {
            let key = String(repeating: "k", count: length)
            let mac = HMACSHA256.authenticate(key: Array(key.utf8), message: Array("1700000000.".utf8) + Sample.body)
            let header = "t=1700000000,v1=" + Hex.encode(mac)
            try WebhookVerifier.verify(
                scheme: .monei, headers: ["MONEI-Signature": header], body: Sample.body, secret: key, now: Sample.timestamp)
        }
    }

    @Test("fresh ids and secrets have the documented shape and do not repeat")
    func freshValues() throws {
        let ids = (0..<100).map { _ in WebhookSigner.newMessageID() }
        #expect(Set(ids).count == 100)
        #expect(ids.allSatisfy { $0.hasPrefix("msg_") && $0.count == 28 })
        let secret = WebhookSigner.newStandardSecret()
        #expect(secret.hasPrefix("whsec_"))
        #expect(try Base64.decode(secret.dropFirst(6)).count == 32)
    }
}
