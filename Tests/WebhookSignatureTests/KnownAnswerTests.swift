import Foundation
import Testing
import WebhookSignature

/// Signatures computed outside this library (Python's hmac and base64, and the Standard Webhooks
/// specification's own example): the library must produce and accept exactly these.
@Suite("known-answer vectors")
struct KnownAnswerTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var scheme: WebhookScheme
        var secret: String
        var id: String
        var timestamp: Int
        var body: [UInt8]
        /// The MONEI-Signature value, or the webhook-signature value.
        var signature: String
        var testDescription: String { name }
    }

    static let binary = (0...255).map { UInt8($0) }
    static let longSecret =
        "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiYw=="

    static let vectors: [Vector] = [
        Vector(
            name: "MONEI, JSON body", scheme: .monei, secret: Sample.apiKey, id: "", timestamp: 1_700_000_000, body: Sample.body,
            signature: "t=1700000000,v1=70f995992a9e1a61b7c104b2ac99e1eac98cc353b5517b0649feba875175e180"),
        Vector(
            name: "MONEI, every byte value", scheme: .monei, secret: Sample.apiKey, id: "", timestamp: 1_700_000_000,
            body: binary, signature: "t=1700000000,v1=74aa5c5b08be918b3e0a87b0f3c25cdda239f905f79391c46818907a48085255"),
        Vector(
            name: "MONEI, empty body", scheme: .monei, secret: Sample.apiKey, id: "", timestamp: 1_700_000_000, body: [],
            signature: "t=1700000000,v1=6d5120754b02eb7369960ece7b3dc617eb152bb41d4f5b4a38f0a42e297521d2"),
        Vector(
            name: "MONEI, 100-byte key (longer than a SHA-256 block)", scheme: .monei, secret: String(repeating: "k", count: 100),
            id: "", timestamp: 1_700_000_000, body: Sample.body,
            signature: "t=1700000000,v1=82978c2acb77b1ac3a5fd6d7d9252936e362d63cb0b218b2e4c78007eb068118"),
        Vector(
            name: "Standard Webhooks specification example", scheme: .standard, secret: Sample.secret,
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Array(#"{"test": 2432232314}"#.utf8),
            signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="),
        Vector(
            name: "Standard, JSON body", scheme: .standard, secret: Sample.secret, id: "msg_1", timestamp: 1_700_000_000,
            body: Sample.body, signature: "v1,Qs8B6i4U9Eh4h1bpVtQBW0M8cuwouUYZOmIQijP6sPQ="),
        Vector(
            name: "Standard, every byte value", scheme: .standard, secret: Sample.secret, id: "msg_1", timestamp: 1_700_000_000,
            body: binary, signature: "v1,HV6NkEJtgS4pMY23HMZm8WVxY3H7uqu+qsHUm/K2Eho="),
        Vector(
            name: "Standard, 100-byte key", scheme: .standard, secret: longSecret, id: "msg_1", timestamp: 1_700_000_000,
            body: Sample.body, signature: "v1,4oZGSTX3gJucVsNxpl1RutjXVHGdC3OmMoenLFdlv9c="),
    ]

    @Test("the signer writes the expected headers", arguments: vectors)
    func signs(vector: Vector) throws {
        let headers = try WebhookSigner.headers(
            scheme: vector.scheme, id: vector.id, timestamp: vector.timestamp, body: vector.body, secret: vector.secret)
        switch vector.scheme {
        case .monei:
            #expect(headers.map(\.name) == ["MONEI-Signature"])
            #expect(headers.map(\.value) == [vector.signature])
        case .standard:
            #expect(headers.map(\.name) == ["webhook-id", "webhook-timestamp", "webhook-signature"])
            #expect(headers.map(\.value) == [vector.id, String(vector.timestamp), vector.signature])
        }
    }

    @Test("the verifier accepts the expected headers", arguments: vectors)
    func verifies(vector: Vector) throws {
        let headers: [String: String] =
            switch vector.scheme {
            case .monei: ["MONEI-Signature": vector.signature]
            case .standard:
                ["webhook-id": vector.id, "webhook-timestamp": String(vector.timestamp), "webhook-signature": vector.signature]
            }
        let verified = try WebhookVerifier.verify(
            scheme: vector.scheme, headers: headers, body: vector.body, secret: vector.secret, now: vector.timestamp)
        #expect(verified == VerifiedWebhook(scheme: vector.scheme, id: vector.scheme == .standard ? vector.id : nil, timestamp: vector.timestamp))
    }

    @Test("the whsec_ prefix is optional, as in the reference libraries")
    func prefixOptional() throws {
        let bare = String(Sample.secret.dropFirst("whsec_".count))
        #expect(try signed(.standard, secret: bare) == signed(.standard))
        try WebhookVerifier.verify(scheme: .standard, headers: signed(.standard), body: Sample.body, secret: bare, now: Sample.timestamp)
    }

    @Test("header names match in any case; uppercase hex and unpadded or URL-safe base64 still match")
    func lenientSpelling() throws {
        let monei = try #require(try signed(.monei)["MONEI-Signature"])
        for name in ["monei-signature", "MONEI-SIGNATURE", "Monei-Signature"] {
            try WebhookVerifier.verify(scheme: .monei, headers: [name: monei], body: Sample.body, secret: Sample.apiKey, now: Sample.timestamp)
        }
        try WebhookVerifier.verify(
            scheme: .monei, headers: ["MONEI-Signature": "t=1700000000,v1=" + monei.dropFirst("t=1700000000,v1=".count).uppercased()],
            body: Sample.body, secret: Sample.apiKey, now: Sample.timestamp)
        // The Standard example's MAC has "+" and "/" and one "=" of padding.
        let example = Array(#"{"test": 2432232314}"#.utf8)
        for signature in ["v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE", "v1,g0hM9SsE-OTPJTGt_tmIKtSyZlE3uFJELVlNIOLJ1OE"] {
            try WebhookVerifier.verify(
                scheme: .standard,
                headers: ["Webhook-Id": "msg_p5jXN8AQM9LWM0D4loKWxJek", "WEBHOOK-TIMESTAMP": "1614265330", "webhook-signature": signature],
                body: example, secret: Sample.secret, now: 1_614_265_330)
        }
    }

    @Test("a body given as Data, a slice or a UTF-8 view verifies like the same bytes in an array")
    func bodyTypes() throws {
        let verifier = try WebhookVerifier(scheme: .monei, secret: Sample.apiKey, clock: { Sample.timestamp })
        let headers = try signed(.monei)
        let text = String(decoding: Sample.body, as: UTF8.self)
        try verifier.verify(headers: headers, body: Sample.body[...])
        try verifier.verify(headers: headers, body: Data(Sample.body))
        try verifier.verify(headers: headers, body: text.utf8)
        try verifier.verify(headers: headers, body: Array(Sample.body.reversed()).reversed())  // not contiguous
        #expect(failure { try verifier.verify(headers: headers, body: Sample.body.dropLast()) } == .noMatchingSignature)
    }
}

@Suite("secrets stay secret")
struct SecretHygieneTests {
    @Test("printing or dumping a verifier shows neither the secret nor key bytes")
    func redacted() throws {
        let verifier = try WebhookVerifier(scheme: .monei, secret: "pk_live_very_secret", tolerance: 60)
        var dumped = ""
        dump(verifier, to: &dumped)
        for text in [String(describing: verifier), String(reflecting: verifier), dumped, "\(verifier)"] {
            #expect(!text.contains("secret") && !text.contains("Pad") && !text.contains("[UInt8]"), "\(text)")
            #expect(text.contains("monei"))
        }
    }
}
