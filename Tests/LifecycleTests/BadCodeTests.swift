import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

/// Every bad challenge code, back-office code and registration token gets its own error code,
/// and none of them puts a second device on a terminal: after each refusal the back office must
/// show exactly the registrations the test expects.
@Suite("Bad codes and tokens")
struct BadCodeTests {
    static let pin = "4321"

    /// A second, different region to take codes and tokens to.
    static func otherRegion(than region: String) throws -> String {
        try #require(regionIDs.first { $0 != region }, "environments.json has one region only")
    }

    @Test("challenge codes and back-office codes: used, expired, unknown, another host, another device, terminal in use")
    func portalCodes() throws {
        try withSandbox(regions: Array(regionIDs.prefix(2))) { sandbox in
            let eu = try sandbox.host(regionIDs.first ?? "EU")
            let other = try sandbox.host(try Self.otherRegion(than: eu.region))
            let r = eu.region
            // The merchant with the most portal terminals, so "next free terminal" has one to find.
            let merchant = try #require(
                eu.fixture.merchants.max { $0.terminals(allowing: "portal").count < $1.terminals(allowing: "portal").count })
            try #require(
                merchant.terminals(allowing: "portal").count >= 2, "[\(eu.region)] needs a merchant with two portal terminals")
            let t1 = merchant.terminals(allowing: "portal")[0].id
            let t2 = merchant.terminals(allowing: "portal")[1].id
            var expected: [String: String] = [:]
            var issuedCodes: Set<String> = []

            // Challenge used: a second confirm of the same challenge, for any terminal.
            let a = newDevice("bad-a")
            let challengeA = try #require(
                expectReply(eu.beginRegistration(a), 201, nil, "[\(r)] A begins").string("challengeCode"))
            let codeA = try #require(
                expectReply(eu.confirm(challenge: challengeA, terminal: t1), 200, nil, "[\(r)] confirm A's challenge")
                    .string("backofficeCode"))
            issuedCodes.insert(codeA)
            expectReply(
                eu.confirm(challenge: challengeA, terminal: t1), 409, "challenge_used", "[\(r)] confirm A's challenge again")
            expectReply(
                eu.confirm(challenge: challengeA, terminal: t2), 409, "challenge_used",
                "[\(r)] confirm A's challenge for another terminal")
            eu.expectRegistrations(expected, "after challenge_used")

            // Unknown challenge.
            expectReply(
                eu.confirm(challenge: "ZZZZ-ZZZZ", terminal: t2), 404, "challenge_not_found",
                "[\(r)] confirm an unknown challenge")
            eu.expectRegistrations(expected, "after challenge_not_found")

            // A completes; then, unregistered, tries the used code again.
            let credentialA = try #require(
                expectReply(eu.complete(a, code: codeA, pin: Self.pin), 200, nil, "[\(r)] A completes").string("deviceSecret"))
            expected[t1] = a
            eu.expectRegistrations(expected, "after A completes")
            expectReply(
                eu.unregister(DeviceCredential(deviceId: a, secret: credentialA, terminalId: t1)), 204, nil,
                "[\(r)] A unregisters")
            expected[t1] = nil
            expectNotValid(eu.verifyCode(codeA), 409, "backoffice_code_used", "[\(r)] verify a used back-office code")
            expectReply(
                eu.complete(a, code: codeA, pin: Self.pin), 409, "backoffice_code_used",
                "[\(r)] A completes again with its used code")
            eu.expectRegistrations(expected, "after backoffice_code_used")

            // Wrong device: D completes with the code issued for B's challenge.
            let b = newDevice("bad-b")
            let d = newDevice("bad-d")
            let challengeB = try #require(
                expectReply(eu.beginRegistration(b), 201, nil, "[\(r)] B begins").string("challengeCode"))
            expectReply(eu.beginRegistration(d), 201, nil, "[\(r)] D begins")
            let codeB = try #require(
                expectReply(eu.confirm(challenge: challengeB, terminal: t1), 200, nil, "[\(r)] confirm B's challenge")
                    .string("backofficeCode"))
            issuedCodes.insert(codeB)
            expectReply(
                eu.complete(d, code: codeB, pin: Self.pin), 403, "backoffice_code_wrong_device",
                "[\(r)] D completes with B's code")
            eu.expectRegistrations(expected, "after backoffice_code_wrong_device")
            _ = try #require(
                expectReply(eu.complete(b, code: codeB, pin: Self.pin), 200, nil, "[\(r)] B completes").string("deviceSecret"))
            expected[t1] = b
            eu.expectRegistrations(expected, "after B completes")

            // Device already registered: B begins again (refused at begin, or at complete).
            let again = eu.beginRegistration(b)
            if again.status == 201, let challenge = again.string("challengeCode") {
                let confirmed = eu.confirm(challenge: challenge, terminal: t2)
                if confirmed.status == 200, let code = confirmed.string("backofficeCode") {
                    issuedCodes.insert(code)
                    expectReply(
                        eu.complete(b, code: code, pin: Self.pin), 409, "device_already_registered",
                        "[\(r)] registered B completes a second registration")
                } else {
                    expectReply(confirmed, 409, "device_already_registered", "[\(r)] confirm for registered B")
                }
            } else {
                expectReply(again, 409, "device_already_registered", "[\(r)] registered B begins again")
            }
            eu.expectRegistrations(expected, "after device_already_registered")

            // Terminal in use: E's challenge for B's terminal (refused at confirm, or at complete).
            let e = newDevice("bad-e")
            let challengeE = try #require(
                expectReply(eu.beginRegistration(e), 201, nil, "[\(r)] E begins").string("challengeCode"))
            let confirmE = eu.confirm(challenge: challengeE, terminal: t1)
            if confirmE.status == 200, let code = confirmE.string("backofficeCode") {
                issuedCodes.insert(code)
                expectReply(
                    eu.complete(e, code: code, pin: Self.pin), 409, "terminal_in_use", "[\(r)] E completes onto B's terminal")
            } else {
                expectReply(confirmE, 409, "terminal_in_use", "[\(r)] confirm E's challenge for B's terminal")
            }
            eu.expectRegistrations(expected, "after terminal_in_use (confirm)")

            // Terminal in use at completion: F and G both get codes for the free T2; F completes first.
            let f = newDevice("bad-f")
            let g = newDevice("bad-g")
            let challengeF = try #require(
                expectReply(eu.beginRegistration(f), 201, nil, "[\(r)] F begins").string("challengeCode"))
            let challengeG = try #require(
                expectReply(eu.beginRegistration(g), 201, nil, "[\(r)] G begins").string("challengeCode"))
            let codeF = try #require(
                expectReply(eu.confirm(challenge: challengeF, terminal: t2), 200, nil, "[\(r)] confirm F for \(t2)").string(
                    "backofficeCode"))
            let codeG = try #require(
                expectReply(eu.confirm(challenge: challengeG, terminal: t2), 200, nil, "[\(r)] confirm G for free \(t2) too")
                    .string("backofficeCode"))
            issuedCodes.formUnion([codeF, codeG])
            expectReply(eu.complete(f, code: codeF, pin: Self.pin), 200, nil, "[\(r)] F completes")
            expected[t2] = f
            expectReply(
                eu.complete(g, code: codeG, pin: Self.pin), 409, "terminal_in_use", "[\(r)] G completes onto F's terminal")
            eu.expectRegistrations(expected, "after terminal_in_use (complete)")

            // "Next free terminal of a merchant" skips terminals with a device; when none is left,
            // no_free_terminal. Taking free terminals one by one ends there.
            var free = Set(merchant.terminals(allowing: "portal").map(\.id)).subtracting(expected.keys)
            while true {
                let h = newDevice("bad-h")
                let challengeH = try #require(
                    expectReply(eu.beginRegistration(h), 201, nil, "[\(r)] H begins").string("challengeCode"))
                let next = eu.confirm(challenge: challengeH, merchant: merchant.id)
                if free.isEmpty {
                    expectReply(
                        next, 409, "no_free_terminal", "[\(r)] confirm H for merchant \(merchant.id) with no free terminal")
                    break
                }
                expectReply(next, 200, nil, "[\(r)] confirm H for merchant \(merchant.id)")
                let chosen = try #require(next.string("terminalId"), "[\(r)] \(next)")
                #expect(
                    free.contains(chosen),
                    "[\(r)] next free terminal of \(merchant.id) is not free: \(next); free: \(free.sorted())")
                let code = try #require(next.string("backofficeCode"), "[\(r)] \(next)")
                issuedCodes.insert(code)
                expectReply(eu.complete(h, code: code, pin: Self.pin), 200, nil, "[\(r)] H completes onto \(chosen)")
                expected[chosen] = h
                free.remove(chosen)
                eu.expectRegistrations(expected, "after confirm by merchant")
            }
            eu.expectRegistrations(expected, "after no_free_terminal")

            // Unknown back-office code.
            let i = newDevice("bad-i")
            expectReply(eu.beginRegistration(i), 201, nil, "[\(r)] I begins")
            let unknown = (0..<1000).lazy.map { "\(r)-\(String(format: "%06d", $0))" }.first { !issuedCodes.contains($0) }!
            expectNotValid(eu.verifyCode(unknown), 404, "backoffice_code_invalid", "[\(r)] verify unknown code \(unknown)")
            expectReply(
                eu.complete(i, code: unknown, pin: Self.pin), 404, "backoffice_code_invalid",
                "[\(r)] complete with unknown \(unknown)")
            eu.expectRegistrations(expected, "after backoffice_code_invalid")

            // A code issued by this host taken to another host.
            let k = newDevice("bad-k")
            let challengeK = try #require(
                expectReply(eu.beginRegistration(k), 201, nil, "[\(r)] K begins").string("challengeCode"))
            let free3 = try #require(eu.fixture.terminals.first { expected[$0.id] == nil && $0.allows("portal") }?.id)
            let codeK = try #require(
                expectReply(eu.confirm(challenge: challengeK, terminal: free3), 200, nil, "[\(r)] confirm K").string(
                    "backofficeCode"))
            let j = newDevice("bad-j")
            let o = other.region
            expectReply(other.beginRegistration(j), 201, nil, "[\(o)] J begins")
            expectNotValid(
                other.verifyCode(codeK), 400, "backoffice_code_wrong_environment", "[\(o)] verify \(r)'s code \(codeK)")
            expectReply(
                other.complete(j, code: codeK, pin: Self.pin), 400, "backoffice_code_wrong_environment",
                "[\(o)] J completes with \(r)'s code \(codeK)")
            other.expectRegistrations([:], "after backoffice_code_wrong_environment")
            eu.expectRegistrations(expected, "after backoffice_code_wrong_environment")

            // Back-office code expired: K waits past 10 minutes before completing.
            eu.advanceClock(601, "[\(r)] back-office code expiry")
            expectNotValid(eu.verifyCode(codeK), 410, "backoffice_code_expired", "[\(r)] verify K's code after 601 s")
            expectReply(
                eu.complete(k, code: codeK, pin: Self.pin), 410, "backoffice_code_expired", "[\(r)] K completes after 601 s")
            eu.expectRegistrations(expected, "after backoffice_code_expired")

            // Challenge expired: L begins, the portal confirms after 10 minutes.
            let l = newDevice("bad-l")
            let challengeL = try #require(
                expectReply(eu.beginRegistration(l), 201, nil, "[\(r)] L begins").string("challengeCode"))
            eu.advanceClock(601, "[\(r)] challenge expiry")
            expectReply(
                eu.confirm(challenge: challengeL, terminal: free3), 410, "challenge_expired", "[\(r)] confirm L after 601 s")
            eu.expectRegistrations(expected, "after challenge_expired")
        }
    }

    @Test("registration tokens: out of order, wrong device, used, terminal in use, unknown, another host, expired")
    func registrationTokens() throws {
        try withSandbox(regions: Array(regionIDs.prefix(2))) { sandbox in
            let eu = try sandbox.host(regionIDs.first ?? "EU")
            let other = try sandbox.host(try Self.otherRegion(than: eu.region))
            let r = eu.region
            let o = other.region
            let merchant = try eu.fixture.merchant(with: 2, allowing: "registrationCode")
            let t1 = merchant.terminals(allowing: "registrationCode")[0].id
            let t2 = merchant.terminals(allowing: "registrationCode")[1].id
            var expected: [String: String] = [:]

            func issue(_ terminal: String, _ step: String) throws -> String {
                try #require(
                    expectReply(eu.merchantToken(key: merchant.apiKey, terminal: terminal), 201, nil, "[\(r)] \(step)")
                        .string("registrationToken"))
            }

            // Out of order, then wrong device, then the right device finishes.
            let token = try issue(t1, "issue a token for \(t1)")
            let n = newDevice("tok-n")
            let p = newDevice("tok-p")
            expectReply(eu.endToken(token, n, pin: Self.pin), 409, "registration_out_of_order", "[\(r)] end before begin")
            expectReply(eu.beginToken(token, n), 409, "registration_out_of_order", "[\(r)] begin before verify")
            eu.expectRegistrations(expected, "after registration_out_of_order")
            let valid = expectReply(eu.verifyToken(token), 200, nil, "[\(r)] verify")
            #expect(valid.bool("valid") == true, "[\(r)] verify: \(valid)")
            expectReply(
                eu.endToken(token, n, pin: Self.pin), 409, "registration_out_of_order", "[\(r)] end after verify, before begin")
            expectReply(eu.beginToken(token, n), 200, nil, "[\(r)] begin by N")
            expectReply(eu.endToken(token, p, pin: Self.pin), 403, "registration_wrong_device", "[\(r)] end by P after N began")
            eu.expectRegistrations(expected, "after registration_wrong_device")
            let ended = expectReply(eu.endToken(token, n, pin: Self.pin), 200, nil, "[\(r)] end by N")
            let secretN = try #require(ended.string("deviceSecret"))
            expected[t1] = n
            eu.expectRegistrations(expected, "after N registered")

            // Used: another device tries the same token.
            expectNotValid(eu.verifyToken(token), 409, "registration_token_used", "[\(r)] verify a used token")
            expectReply(eu.beginToken(token, p), 409, "registration_token_used", "[\(r)] begin with a used token")
            expectReply(eu.endToken(token, p, pin: Self.pin), 409, "registration_token_used", "[\(r)] end with a used token")
            eu.expectRegistrations(expected, "after registration_token_used")

            // Terminal in use: a token for N's terminal (refused at issue, or on the way to end).
            let q = newDevice("tok-q")
            let inUse = eu.merchantToken(key: merchant.apiKey, terminal: t1)
            if inUse.status == 201, let busy = inUse.string("registrationToken") {
                let steps = [
                    ("verify", eu.verifyToken(busy)), ("begin", eu.beginToken(busy, q)),
                    ("end", eu.endToken(busy, q, pin: Self.pin)),
                ]
                let refusal = steps.first { $0.1.status != 200 }
                let (name, reply) = try #require(refusal, "[\(r)] a token for \(t1) (in use) registered Q: \(steps.map(\.1))")
                expectReply(reply, 409, "terminal_in_use", "[\(r)] token for a terminal in use: \(name)")
            } else {
                expectReply(inUse, 409, "terminal_in_use", "[\(r)] issue a token for \(t1) (in use)")
            }
            eu.expectRegistrations(expected, "after terminal_in_use (token)")

            // Two tokens for one free terminal: the newer replaces the older, which registers nobody.
            let first = try issue(t2, "issue token 1 for \(t2)")
            let second = try issue(t2, "issue token 2 for \(t2)")
            let s = newDevice("tok-s")
            let t = newDevice("tok-t")
            expectNotValid(eu.verifyToken(first), 404, "registration_token_invalid", "[\(r)] verify token 1, replaced by token 2")
            expectReply(eu.beginToken(first, t), 404, "registration_token_invalid", "[\(r)] T begins the replaced token 1")
            expectReply(eu.verifyToken(second), 200, nil, "[\(r)] verify token 2")
            expectReply(eu.beginToken(second, s), 200, nil, "[\(r)] S begins token 2")
            expectReply(eu.endToken(second, s, pin: Self.pin), 200, nil, "[\(r)] S ends token 2")
            expected[t2] = s
            eu.expectRegistrations(expected, "after a replaced token")

            // Unknown token of the right shape.
            let unknown = "rt_\(r.lowercased())_" + String(repeating: "0", count: 32)
            expectNotValid(eu.verifyToken(unknown), 404, "registration_token_invalid", "[\(r)] verify an unknown token")
            expectReply(eu.beginToken(unknown, q), 404, "registration_token_invalid", "[\(r)] begin with an unknown token")
            eu.expectRegistrations(expected, "after registration_token_invalid")

            // A token of this host taken to another host.
            expectReply(
                eu.unregister(DeviceCredential(deviceId: n, secret: secretN, terminalId: t1)), 204, nil, "[\(r)] N unregisters")
            expected[t1] = nil
            let foreign = try issue(t1, "issue a token for \(t1) again")
            expectNotValid(
                other.verifyToken(foreign), 400, "registration_token_wrong_environment", "[\(o)] verify \(r)'s token")
            expectReply(
                other.beginToken(foreign, q), 400, "registration_token_wrong_environment", "[\(o)] begin with \(r)'s token")
            expectReply(
                other.endToken(foreign, q, pin: Self.pin), 400, "registration_token_wrong_environment",
                "[\(o)] end with \(r)'s token")
            other.expectRegistrations([:], "after registration_token_wrong_environment")
            eu.expectRegistrations(expected, "after registration_token_wrong_environment")

            // Expired: 24 hours and a second later (one token at a time: a new one replaces the last).
            let late = try issue(t1, "issue a token to let expire")
            let u = newDevice("tok-u")
            let w = newDevice("tok-w")
            eu.advanceClock(24 * 3600 + 1, "[\(r)] token expiry")
            expectNotValid(eu.verifyToken(late), 410, "registration_token_expired", "[\(r)] verify after 24 h")
            expectReply(eu.beginToken(late, u), 410, "registration_token_expired", "[\(r)] begin after 24 h")
            let begunLate = try issue(t1, "issue a token to begin, then let expire")
            expectReply(eu.verifyToken(begunLate), 200, nil, "[\(r)] verify the token to begin")
            expectReply(eu.beginToken(begunLate, w), 200, nil, "[\(r)] W begins before expiry")
            eu.advanceClock(24 * 3600 + 1, "[\(r)] begun token expiry")
            expectReply(
                eu.endToken(begunLate, w, pin: Self.pin), 410, "registration_token_expired", "[\(r)] W ends after 24 h")
            eu.expectRegistrations(expected, "after registration_token_expired")
        }
    }
}
