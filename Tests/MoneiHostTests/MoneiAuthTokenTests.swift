import Foundation
import SandboxCrypto
import SandboxTestSupport
import Testing

@Suite("MONEI host: POS auth tokens for a merchant's backend, and the device presenting them")
struct MoneiAuthTokenTests {
    @Test("a token for the account's first store and point of sale, or for the store and point of sale asked for")
    func issues() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        let cases: [([String: Any]?, store: String, pos: String)] = [
            (nil, MoneiHost.centro, "MONEI-T0101"),
            (["storeId": MoneiHost.triana], MoneiHost.triana, "MONEI-T0103"),
            (["storeId": MoneiHost.centro, "pointOfSaleId": "MONEI-T0102"], MoneiHost.centro, "MONEI-T0102"),
            (["pointOfSaleId": "MONEI-T0103"], MoneiHost.triana, "MONEI-T0103"),
        ]
        for (body, store, pos) in cases {
            let token = try await monei.token(body)
            // JWT-shaped: three base64url parts.
            #expect(token.split(separator: ".").count == 3, "\(token)")
            let prepared = await monei.prepare(token)
            expectReply(prepared, 200, nil, "prepare with a token for \(body ?? [:])")
            #expect(prepared.string("accountId") == MoneiHost.account1)
            #expect(prepared.string("storeId") == store, "\(prepared)")
            #expect(prepared.string("pointOfSaleId") == pos, "\(prepared)")
            let reader = prepared["reader"] as? [String: Any] ?? [:]
            #expect((reader["readerKey"] as? String).flatMap { Data(base64Encoded: $0) }?.count == 32, "\(prepared)")
        }
        // Another account gets its own store.
        let other = await monei.prepare(try await monei.token(key: monei.key2))
        #expect(other.string("storeId") == MoneiHost.gracia && other.string("pointOfSaleId") == "MONEI-T0201", "\(other)")
    }

    @Test("the API key goes bare in Authorization: missing, unknown or with a scheme word is 401 in MONEI's error body")
    func wrongKeys() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        expectMoneiError(await monei.authToken(key: nil), 401, code: "unauthorized", "no key")
        expectMoneiError(await monei.authToken(key: "pk_test_00000000000000000000000000000000"), 401, code: "unauthorized", "unknown key")
        expectMoneiError(await monei.authToken(key: "Bearer \(monei.key1)"), 401, code: "unauthorized", "a scheme word")
        // A POS token is no API key.
        let token = try await monei.token()
        expectMoneiError(await monei.payment("x", key: token), 401, code: "unauthorized", "a POS token as the key")
    }

    @Test("a store or point of sale of another account, or one not in the store, is refused as not found")
    func otherAccountsStores() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        expectMoneiError(await monei.authToken(key: monei.key1, ["storeId": MoneiHost.gracia]), 404, code: "not_found", "another account's store")
        expectMoneiError(await monei.authToken(key: monei.key2, ["storeId": MoneiHost.centro]), 404, code: "not_found", "the other way round")
        expectMoneiError(
            await monei.authToken(key: monei.key1, ["pointOfSaleId": "MONEI-T0201"]), 404, code: "terminal_not_found",
            "another account's point of sale")
        expectMoneiError(
            await monei.authToken(key: monei.key1, ["storeId": MoneiHost.triana, "pointOfSaleId": "MONEI-T0101"]), 404,
            code: "terminal_not_found", "a point of sale of another store")
        expectMoneiError(await monei.authToken(key: monei.key1, ["storeId": "store_nope"]), 404, code: "not_found", "an unknown store")
    }

    @Test("bad bodies are 400 in MONEI's error body, never a 5xx")
    func badBodies() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        for raw in ["{", "[]", #"{"storeId": 5}"#, #"{"pointOfSaleId": ["MONEI-T0101"]}"#, #"{"storeId": "a", "storeId": "b"}"#] {
            let reply = await monei.api.call("POST", "/v1/pos/auth-token", authorization: monei.key1, raw: raw)
            expectMoneiError(reply, 400, code: "invalid_json", "body \(raw)")
        }
        let typed = await monei.api.call(
            "POST", "/v1/pos/auth-token", authorization: monei.key1, raw: "storeId=x", headers: [("Content-Type", "text/plain")])
        expectMoneiError(typed, 415, code: "unsupported_media_type", "a form body")
    }

    @Test("a token expires 24 hours later on the host's clock: 401 session_expired (the device's tokenExpired)")
    func expiry() async throws {
        // The host's clock stands still but for the moves below, so no real time races the 24 hours.
        let monei = try MoneiHost()
        defer { monei.stop() }
        let token = try await monei.token()
        expectReply(await monei.api.advanceClock(24 * 3600 - 2, "two seconds before the day ends"), 200, nil, "clock")
        expectReply(await monei.prepare(token), 200, nil, "still valid")
        expectReply(await monei.api.advanceClock(2, "the day ends"), 200, nil, "clock")
        expectMoneiError(await monei.prepare(token), 401, code: "session_expired", "prepare after 24 h")
        let payment = await monei.api.call(
            "POST", "/v1/pos/payments", bearer: token, body: ["amount": 100, "orderId": "o-1", "card": "x"])
        expectMoneiError(payment, 401, code: "session_expired", "a payment after 24 h")
        // A new token works again.
        expectReply(await monei.prepare(try await monei.token()), 200, nil, "a fresh token")
    }

    @Test("a forged, damaged or foreign token is 401 unauthorized (the device's invalidToken)")
    func forged() async throws {
        let monei = try MoneiHost()
        defer { monei.stop() }
        let token = try await monei.token()
        let parts = token.split(separator: ".").map(String.init)
        // The same claims with another point of sale, signature kept: the signature no longer matches.
        var claims = try JSONSerialization.jsonObject(with: Data(try Base64.decode(parts[1]))) as? [String: Any] ?? [:]
        claims["pointOfSaleId"] = "MONEI-T0201"
        claims["acc"] = MoneiHost.account2
        let forgedClaims = Base64.encode(try JSONSerialization.data(withJSONObject: claims), urlSafe: true)
        let signedElsewhere = Base64.encode(HMACSHA256.authenticate(key: "guess", message: "MONEI.\(parts[0]).\(forgedClaims)"), urlSafe: true)
        let forged = [
            "\(parts[0]).\(forgedClaims).\(parts[2])", "\(parts[0]).\(forgedClaims).\(signedElsewhere)", "\(parts[0]).\(parts[1])",
            token + "x", "not-a-token", String(repeating: "a", count: 5000), monei.key1,
        ]
        for candidate in forged {
            expectMoneiError(await monei.prepare(candidate), 401, code: "unauthorized", "token \(candidate.prefix(40))…")
        }
        expectMoneiError(await monei.api.call("POST", "/v1/pos/prepare"), 401, code: "unauthorized", "no token")
        expectMoneiError(await monei.api.call("POST", "/v1/pos/prepare", authorization: token), 401, code: "unauthorized", "no Bearer word")
    }
}
