import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

/// Who may see and do what: terminals, merchants and hosts are walled off from one another,
/// and every surface answers a missing or wrong credential with 401 and the envelope.
@Suite("Isolation and credentials")
struct IsolationTests {
    static let pin = "8642"

    @Test("a session sees only its own terminal; a merchant only its own terminals; a host only its own credentials")
    func isolation() throws {
        try withSandbox(regions: Array(regionIDs.prefix(2))) { sandbox in
            let eu = try sandbox.host(regionIDs.first ?? "EU")
            let other = try sandbox.host(try #require(regionIDs.first { $0 != eu.region }))
            let r = eu.region
            let o = other.region
            #expect(eu.fixture.merchants.count >= 2, "[\(r)] merchants.json needs two merchants")
            let m1 = try #require(eu.fixture.merchants.first)
            let m2 = try #require(eu.fixture.merchants.dropFirst().first)
            let ta = try #require(m1.terminals(allowing: "portal").first).id
            let tb = try #require(m2.terminals(allowing: "registrationCode").first).id

            let a = try eu.portalRegister(newDevice("iso-a"), terminal: ta, pin: Self.pin, "[\(r)] register A on \(ta)")
            let b = try eu.tokenRegister(newDevice("iso-b"), terminal: tb, pin: Self.pin, "[\(r)] register B on \(tb)")
            let sessionA = try eu.loginToken(a, pin: Self.pin, "[\(r)] login A")
            let sessionB = try eu.loginToken(b, pin: Self.pin, "[\(r)] login B")

            // A session only ever sees its own terminal, whatever the request names.
            for path in [
                "/terminal/v1/terminal", "/terminal/v1/terminal?terminalId=\(tb)", "/terminal/v1/terminal?merchantId=\(m2.id)",
            ] {
                let info = expectReply(eu.service.call("GET", path, bearer: sessionA), 200, nil, "[\(r)] A asks \(path)")
                #expect(
                    info.string("terminalId") == ta && info.string("merchantId") == m1.id,
                    "[\(r)] A saw another terminal: \(info)")
            }
            let infoB = expectReply(eu.terminalInfo(sessionB), 200, nil, "[\(r)] B's terminal info")
            #expect(infoB.string("terminalId") == tb && infoB.string("merchantId") == m2.id, "[\(r)] \(infoB)")
            let currentA = expectReply(eu.session(sessionA), 200, nil, "[\(r)] A's session")
            #expect(currentA.string("terminalId") == ta, "[\(r)] \(currentA)")

            // A merchant's key reaches only its own terminals.
            expectReply(
                eu.merchantToken(key: m1.apiKey, terminal: tb), 404, "terminal_not_found",
                "[\(r)] \(m1.id) issues a token for \(m2.id)'s \(tb)")
            expectReply(
                eu.merchantToken(key: m1.apiKey, terminal: "NO-SUCH-TERMINAL"), 404, "terminal_not_found",
                "[\(r)] \(m1.id) issues a token for an unknown terminal")
            for merchant in [m1, m2] {
                let list = expectReply(
                    eu.merchantTerminals(key: merchant.apiKey), 200, nil, "[\(r)] \(merchant.id) lists terminals")
                let ids = (list.array("terminals") as? [[String: Any]] ?? []).compactMap { $0["terminalId"] as? String }
                #expect(Set(ids) == Set(merchant.terminals.map(\.id)) && ids.count == merchant.terminals.count, "[\(r)] \(list)")
            }

            // Credentials of one host mean nothing on another.
            expectReply(other.merchantTerminals(key: m1.apiKey), 401, "unauthorized", "[\(o)] \(r) merchant key")
            expectReply(
                other.merchantToken(key: m1.apiKey, terminal: ta), 401, "unauthorized", "[\(o)] \(r) merchant key issues a token")
            expectReply(other.terminalInfo(sessionA), 401, "unauthorized", "[\(o)] \(r) session token: terminal info")
            expectReply(other.session(sessionA), 401, "unauthorized", "[\(o)] \(r) session token: current session")
            expectReply(
                other.service.call("GET", "/backoffice/v1/merchants", bearer: eu.backOfficeKey), 401, "unauthorized",
                "[\(o)] \(r) back-office key")
            expectReply(other.login(a, pin: Self.pin), 401, "unauthorized", "[\(o)] \(r) device credential: login")
            expectReply(other.unregister(a), 401, "unauthorized", "[\(o)] \(r) device credential: unregister")
            // …and the other host's own keys mean nothing here.
            let otherMerchant = try #require(other.fixture.merchants.first)
            expectReply(eu.merchantTerminals(key: otherMerchant.apiKey), 401, "unauthorized", "[\(r)] \(o) merchant key")
            expectReply(
                eu.service.call("GET", "/backoffice/v1/merchants", bearer: other.backOfficeKey), 401, "unauthorized",
                "[\(r)] \(o) back-office key")

            // Missing or wrong credentials on every surface: 401 with the envelope, and nothing done.
            let badBearers: [(String, String?)] = [
                ("no Authorization", nil), ("a made-up bearer", "Bearer nope-\(UUID().uuidString)"),
                ("Basic", "Basic dXNlcjpwYXNz"),
                ("Bearer without a token", "Bearer "),
            ]
            let sessionCalls: [(String, String, [String: Any]?)] = [
                ("GET", "/terminal/v1/sessions/current", nil), ("DELETE", "/terminal/v1/sessions/current", nil),
                ("GET", "/terminal/v1/info-init", nil), ("GET", "/terminal/v1/terminal", nil),
                ("PUT", "/terminal/v1/secret-code", ["oldSecretCode": Self.pin, "newSecretCode": "9999"]),
                ("POST", "/terminal/v1/relink", nil),
            ]
            let merchantCalls: [(String, String, [String: Any]?)] = [
                ("GET", "/merchant/v1/terminals", nil), ("POST", "/merchant/v1/registration-tokens", ["terminalId": ta]),
            ]
            let backOfficeCalls: [(String, String, [String: Any]?)] = [
                ("GET", "/backoffice/v1/merchants", nil), ("GET", "/backoffice/v1/terminals/\(ta)", nil),
                ("POST", "/backoffice/v1/challenges/confirm", ["challengeCode": "ABCD-EFGH", "terminalId": tb]),
                ("POST", "/backoffice/v1/registration-tokens", ["terminalId": ta]),
                ("POST", "/backoffice/v1/terminals/\(ta)/unlock", nil),
                ("POST", "/backoffice/v1/terminals/\(ta)/unregister", nil),
                ("GET", "/backoffice/v1/mailbox", nil),
            ]
            // Keys of the other surfaces are wrong credentials too.
            let crossSession = [("a merchant key", "Bearer \(m1.apiKey)"), ("the back-office key", "Bearer \(eu.backOfficeKey)")]
            let crossMerchant = [
                ("a session token", "Bearer \(sessionA)"), ("the back-office key", "Bearer \(eu.backOfficeKey)"),
            ]
            let crossBackOffice = [("a session token", "Bearer \(sessionA)"), ("a merchant key", "Bearer \(m1.apiKey)")]
            for (calls, extra) in [
                (sessionCalls, crossSession), (merchantCalls, crossMerchant), (backOfficeCalls, crossBackOffice),
            ] {
                for (method, path, body) in calls {
                    for (label, authorization) in badBearers + extra.map({ ($0.0, Optional($0.1)) }) {
                        let reply = eu.service.call(method, path, authorization: authorization, body: body)
                        expectReply(reply, 401, "unauthorized", "[\(r)] \(method) \(path) with \(label)")
                    }
                }
            }
            // Device credentials: wrong secret, unknown device.
            var wrongSecret = a
            wrongSecret.secret = "ds_not-the-secret"
            let stranger = DeviceCredential(deviceId: newDevice("iso-unknown"), secret: "ds_whatever", terminalId: ta)
            for (label, credential) in [("a wrong secret", wrongSecret), ("an unknown device", stranger)] {
                expectReply(eu.login(credential, pin: Self.pin), 401, "unauthorized", "[\(r)] login with \(label)")
                expectReply(eu.unregister(credential), 401, "unauthorized", "[\(r)] unregister with \(label)")
                // isDeviceRegistered answers a yes/no: a credential that does not match is "not registered".
                let status = expectReply(eu.deviceStatus(credential), 200, nil, "[\(r)] device status with \(label)")
                #expect(
                    status.bool("registered") == false && status["terminalId"] == nil,
                    "[\(r)] device status with \(label): \(status)")
            }

            // Nothing of the above changed anything.
            eu.expectRegistrations([ta: a.deviceId, tb: b.deviceId], "after the refused calls")
            other.expectRegistrations([:], "after the refused calls")
            expectReply(eu.session(sessionA), 200, nil, "[\(r)] A's session survives refused calls")
            expectReply(eu.session(sessionB), 200, nil, "[\(r)] B's session survives refused calls")
            _ = try eu.loginToken(a, pin: Self.pin, "[\(r)] A's PIN is unchanged")
            let stateA = expectReply(eu.terminalState(ta), 200, nil, "[\(r)] back office \(ta)")
            #expect(stateA.bool("locked") == false, "[\(r)] \(stateA)")
            let mail = expectReply(eu.mailbox(), 200, nil, "[\(r)] mailbox")
            #expect((mail.array("messages") ?? []).isEmpty, "[\(r)] a refused call sent mail: \(mail)")
        }
    }

    @Test("bad bodies are 400 invalid_json or invalid_request naming the field, unknown fields are ignored, never a 500")
    func badBodies() throws {
        try withSandbox { sandbox in
            let host = try sandbox.host(regionIDs.first ?? "EU")
            let r = host.region
            let merchant = try #require(host.fixture.merchants.first)
            let terminal = try #require(merchant.terminals.first).id
            let device = newDevice("body")
            // A live challenge, so that confirming it for an unknown merchant fails on the merchant only.
            let challenge = try #require(
                expectReply(host.beginRegistration(newDevice("body-challenge")), 201, nil, "[\(r)] begin").string("challengeCode")
            )
            let cases: [(String, String, String?, [String: Any]?, String?, Int, String, String?)] = [
                ("POST", "/terminal/v1/registrations", nil, ["deviceId": device], nil, 400, "invalid_json", "deviceModel"),
                (
                    "POST", "/terminal/v1/registrations", nil, ["deviceId": device, "deviceModel": 5], nil, 400, "invalid_json",
                    "deviceModel"
                ),
                ("POST", "/terminal/v1/registrations", nil, nil, "not json", 400, "invalid_json", nil),
                ("POST", "/terminal/v1/sessions", nil, [:], "{}", 400, "invalid_json", "deviceId"),
                (
                    "POST", "/terminal/v1/token-registrations/verify", nil, ["registrationToken": 42], nil, 400, "invalid_json",
                    "registrationToken"
                ),
                (
                    "POST", "/merchant/v1/registration-tokens", merchant.apiKey,
                    ["terminalId": terminal, "email": "not-an-address"], nil,
                    400, "invalid_request", "email"
                ),
                (
                    "POST", "/backoffice/v1/registration-tokens", host.backOfficeKey, ["terminalId": "NO-SUCH-TERMINAL"], nil,
                    404, "terminal_not_found", nil
                ),
                (
                    "POST", "/backoffice/v1/challenges/confirm", host.backOfficeKey,
                    ["challengeCode": challenge, "merchantId": "NO-SUCH-MERCHANT"],
                    nil, 404, "merchant_not_found", nil
                ),
                (
                    "GET", "/backoffice/v1/terminals/NO-SUCH-TERMINAL", host.backOfficeKey, nil, nil, 404, "terminal_not_found",
                    nil
                ),
                ("POST", "/_sandbox/clock", nil, [:], "{}", 400, "invalid_request", nil),
            ]
            for (method, path, bearer, body, raw, status, code, field) in cases {
                let reply = host.service.call(method, path, bearer: bearer, body: (body?.isEmpty ?? true) ? nil : body, raw: raw)
                let label = "[\(r)] \(method) \(path) \(raw ?? body.map { "\($0)" } ?? "")"
                expectReply(reply, status, code, label)
                if let field {
                    #expect(reply.error?["field"] as? String == field, "\(label): the error should name \(field): \(reply)")
                }
            }
            // Unknown fields are ignored.
            let extra = host.service.call(
                "POST", "/terminal/v1/registrations", body: ["deviceId": device, "deviceModel": "iPhone15,2", "colour": "blue"])
            expectReply(extra, 201, nil, "[\(r)] begin registration with an unknown field")
            expectReply(
                host.confirm(challenge: challenge, terminal: "NO-SUCH-TERMINAL"), 404, "terminal_not_found",
                "[\(r)] confirm for an unknown terminal")
            host.expectRegistrations([:], "after bad bodies")
        }
    }
}
