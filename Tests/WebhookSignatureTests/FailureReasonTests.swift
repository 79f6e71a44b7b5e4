import Testing
import WebhookSignature

/// Each way a webhook can be wrong has its own reason, and the checks run in a documented order.
@Suite("typed verification failures")
struct FailureReasonTests {
    static func verify(
        _ scheme: WebhookScheme, _ headers: [String: String], body: [UInt8] = Sample.body, secret: String? = nil,
        now: Int = Sample.timestamp
    ) -> WebhookVerificationError? {
        failure {
            try WebhookVerifier.verify(
                scheme: scheme, headers: headers, body: body,
                secret: secret ?? (scheme == .monei ? Sample.apiKey : Sample.secret), now: now)
        }
    }

    static let moneiSignature = "t=1700000000,v1=70f995992a9e1a61b7c104b2ac99e1eac98cc353b5517b0649feba875175e180"
    static let standardHeaders = [
        "webhook-id": "msg_1", "webhook-timestamp": "1700000000",
        "webhook-signature": "v1,Qs8B6i4U9Eh4h1bpVtQBW0M8cuwouUYZOmIQijP6sPQ=",
    ]

    @Test("the unchanged sample verifies (the baseline every case below changes one thing of)")
    func baseline() {
        #expect(Self.verify(.monei, ["MONEI-Signature": Self.moneiSignature]) == nil)
        #expect(Self.verify(.standard, Self.standardHeaders) == nil)
    }

    @Test("a tampered body: no matching signature", arguments: WebhookScheme.allCases)
    func tamperedBody(scheme: WebhookScheme) throws {
        var body = Sample.body
        body[body.count - 5] = UInt8(ascii: "9")  // amount 1050 → 1090
        let error = Self.verify(scheme, try signed(scheme), body: body)
        #expect(error == .noMatchingSignature)
        #expect(error?.reason == "no_matching_signature")
        #expect(Self.verify(scheme, try signed(scheme), body: Sample.body + [UInt8(ascii: " ")]) == .noMatchingSignature)
    }

    @Test("a wrong secret: no matching signature")
    func wrongSecret() throws {
        #expect(Self.verify(.monei, try signed(.monei), secret: "pk_test_someone_else") == .noMatchingSignature)
        #expect(Self.verify(.standard, try signed(.standard), secret: "whsec_c29tZW9uZSBlbHNl") == .noMatchingSignature)
    }

    @Test("a changed timestamp or message id breaks the signature, it is not just a tolerance matter")
    func signedMetadata() {
        #expect(
            Self.verify(.monei, ["MONEI-Signature": Self.moneiSignature.replacingOccurrences(of: "t=1700000000", with: "t=1700000001")])
                == .noMatchingSignature)
        var headers = Self.standardHeaders
        headers["webhook-id"] = "msg_2"
        #expect(Self.verify(.standard, headers) == .noMatchingSignature)
        headers = Self.standardHeaders
        headers["webhook-timestamp"] = "1700000001"
        #expect(Self.verify(.standard, headers) == .noMatchingSignature)
    }

    @Test("an old timestamp on a genuine signature: outside tolerance")
    func oldTimestamp() throws {
        for scheme in WebhookScheme.allCases {
            let error = Self.verify(scheme, try signed(scheme), now: Sample.timestamp + 3600)
            #expect(error == .timestampOutsideTolerance)
            #expect(error?.reason == "timestamp_outside_tolerance")
        }
    }

    @Test("the signature is checked before the timestamp: a forged old message is a forgery, not a replay")
    func order() throws {
        var body = Sample.body
        body[0] = UInt8(ascii: "[")
        #expect(Self.verify(.monei, try signed(.monei), body: body, now: Sample.timestamp + 3600) == .noMatchingSignature)
        #expect(Self.verify(.monei, ["MONEI-Signature": "t=1,v0=00"], now: Sample.timestamp) == .downgrade)
    }

    @Test("a missing header", arguments: ["webhook-id", "webhook-timestamp", "webhook-signature"])
    func missingStandardHeader(name: String) {
        var headers = Self.standardHeaders
        headers[name] = nil
        let error = Self.verify(.standard, headers)
        #expect(error == .missingHeader)
        #expect(error?.header == name)
        #expect(error?.reason == "missing_header")
        headers[name] = "  "
        #expect(Self.verify(.standard, headers) == .missingHeader, "an empty header is a missing one")
    }

    @Test("a missing MONEI-Signature, including when only the Standard headers came")
    func missingMoneiHeader() {
        #expect(Self.verify(.monei, [:]) == .missingHeader)
        #expect(Self.verify(.monei, Self.standardHeaders) == .missingHeader)
        #expect(Self.verify(.monei, ["Stripe-Signature": Self.moneiSignature]) == .missingHeader)
        #expect(Self.verify(.monei, ["MONEI-Signature": ""]) == .missingHeader)
    }

    @Test(
        "a malformed MONEI-Signature",
        arguments: [
            "hello", "v1=70f995992a9e1a61b7c104b2ac99e1eac98cc353b5517b0649feba875175e180", "t=abc,v1=00", "t=-5,v1=00",
            "t=1.5,v1=00", "t=,v1=00", "t=1700000000", "t=1700000000,", "t=1700000000,t=1700000000,v1=00", "=x,t=1,v1=00",
            "t=1700000000;v1=00",
        ])
    func malformedMonei(header: String) {
        let error = Self.verify(.monei, ["MONEI-Signature": header])
        #expect(error == .malformedHeader, "\(header)")
        #expect(error?.reason == "malformed_header")
    }

    @Test("a malformed Standard Webhooks header", arguments: [("webhook-timestamp", "12.5"), ("webhook-timestamp", "soon"), ("webhook-signature", "v1")]
    )
    func malformedStandard(name: String, value: String) {
        var headers = Self.standardHeaders
        headers[name] = value
        #expect(Self.verify(.standard, headers) == .malformedHeader)
    }

    @Test(
        "a header offering only other schemes is refused as a downgrade, before any MAC is computed",
        arguments: [
            // The genuine MAC, but under another scheme's name: still refused.
            "t=1700000000,v0=70f995992a9e1a61b7c104b2ac99e1eac98cc353b5517b0649feba875175e180",
            "t=1700000000,v2=abc",
            "t=1700000000,V1=70f995992a9e1a61b7c104b2ac99e1eac98cc353b5517b0649feba875175e180",
        ])
    func moneiDowngrade(header: String) {
        let error = Self.verify(.monei, ["MONEI-Signature": header])
        #expect(error == .downgrade)
        #expect(error?.reason == "downgrade")
        #expect(error != .noMatchingSignature)
        #expect(error?.message.contains("no v1 signature") == true)
    }

    @Test(
        "a webhook-signature offering only v1a or other versions is a downgrade",
        arguments: ["v1a,Qs8B6i4U9Eh4h1bpVtQBW0M8cuwouUYZOmIQijP6sPQ=", "v0,Qs8B6i4U9Eh4h1bpVtQBW0M8cuwouUYZOmIQijP6sPQ= v2,abc"])
    func standardDowngrade(signature: String) {
        var headers = Self.standardHeaders
        headers["webhook-signature"] = signature
        #expect(Self.verify(.standard, headers) == .downgrade)
    }

    @Test("other schemes beside a v1 are ignored: the v1 decides")
    func otherSchemesIgnored() {
        let genuine = String(Self.moneiSignature.dropFirst("t=1700000000,".count))
        #expect(Self.verify(.monei, ["MONEI-Signature": "t=1700000000,v0=deadbeef," + genuine]) == nil)
        #expect(Self.verify(.monei, ["MONEI-Signature": "t=1700000000,v0=" + genuine.dropFirst(3) + ",v1=00"]) == .noMatchingSignature)
        var headers = Self.standardHeaders
        headers["webhook-signature"] = "v1a,AAAA " + Self.standardHeaders["webhook-signature"]!
        #expect(Self.verify(.standard, headers) == nil)
    }

    @Test("several v1 signatures (a key rotation): any one that matches is enough, in any position")
    func multipleSignatures() throws {
        let old = try signed(.monei, secret: "pk_old")["MONEI-Signature"]!.dropFirst("t=1700000000,".count)
        let new = try signed(.monei, secret: "pk_new")["MONEI-Signature"]!.dropFirst("t=1700000000,".count)
        for secret in ["pk_old", "pk_new"] {
            #expect(Self.verify(.monei, ["MONEI-Signature": "t=1700000000,\(old),\(new)"], secret: secret) == nil)
            #expect(Self.verify(.monei, ["MONEI-Signature": "t=1700000000, \(new), \(old)"], secret: secret) == nil)
        }
        #expect(Self.verify(.monei, ["MONEI-Signature": "t=1700000000,\(old),\(new)"], secret: "pk_other") == .noMatchingSignature)

        let oldSecret = "whsec_b2xkIHNlY3JldA==", newSecret = "whsec_bmV3IHNlY3JldA=="
        let oldSignature = try signed(.standard, secret: oldSecret)["webhook-signature"]!
        let newSignature = try signed(.standard, secret: newSecret)["webhook-signature"]!
        var headers = Self.standardHeaders
        headers["webhook-signature"] = "\(oldSignature) \(newSignature)"
        #expect(Self.verify(.standard, headers, secret: oldSecret) == nil)
        #expect(Self.verify(.standard, headers, secret: newSecret) == nil)
        #expect(Self.verify(.standard, headers, secret: Sample.secret) == .noMatchingSignature)
    }

    @Test("a signature that is not hex or base64 is a wrong signature, not a crash")
    func garbageSignatures() {
        #expect(Self.verify(.monei, ["MONEI-Signature": "t=1700000000,v1=zz"]) == .noMatchingSignature)
        #expect(Self.verify(.monei, ["MONEI-Signature": "t=1700000000,v1="]) == .noMatchingSignature)
        var headers = Self.standardHeaders
        headers["webhook-signature"] = "v1,***"
        #expect(Self.verify(.standard, headers) == .noMatchingSignature)
    }

    @Test("two spellings of one header, with no lowercase one, are ambiguous")
    func duplicateSpellings() {
        let headers = ["MONEI-Signature": Self.moneiSignature, "Monei-Signature": "t=1,v1=00"]
        #expect(Self.verify(.monei, headers) == .malformedHeader)
    }

    @Test("a Standard Webhooks secret that is not base64 is the verifier's own error, and the signer's")
    func invalidSecret() {
        for secret in ["whsec_", "whsec_***", "whsec_abcde"] {
            #expect(Self.verify(.standard, Self.standardHeaders, secret: secret) == .invalidSecret, "\(secret)")
            #expect(throws: WebhookSignatureError.invalidSecret) {
                try WebhookSigner.headers(scheme: .standard, id: "msg_1", timestamp: 1, body: [], secret: secret)
            }
        }
    }

    @Test("each reason has its own code, and the description is 'code: message'")
    func distinctReasons() {
        let all: [WebhookVerificationError] = [
            .missingHeader, .malformedHeader, .downgrade, .noMatchingSignature, .timestampOutsideTolerance, .invalidSecret,
        ]
        #expect(Set(all.map(\.reason)).count == all.count)
        #expect(Set(all).count == all.count)
        for error in all { #expect(error.description.hasPrefix(error.reason + ": ")) }
    }
}
