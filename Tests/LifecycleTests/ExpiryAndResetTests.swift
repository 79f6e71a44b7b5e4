import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

@Suite("Certificate expiry and sandbox reset")
struct ExpiryAndResetTests {
    static let pin = "97531"
    static let day = 24 * 3600

    @Test(
        "a device without a login for more than 90 days gets certificates_expired once, then terminal_unregistered; its terminal is free"
    )
    func certificateExpiry() throws {
        try withSandbox { sandbox in
            let host = try sandbox.host(regionIDs.first ?? "EU")
            let r = host.region
            let t1 = try #require(host.fixture.terminals.first { $0.allows("portal") }).id
            let t2 = try #require(host.fixture.terminals.first { $0.id != t1 && $0.allows("registrationCode") }).id

            let stale = try host.portalRegister(
                newDevice("cert-stale"), terminal: t1, pin: Self.pin, "[\(r)] register the stale device")
            let active = try host.tokenRegister(
                newDevice("cert-active"), terminal: t2, pin: Self.pin, "[\(r)] register the active device")
            _ = try host.loginToken(stale, pin: Self.pin, "[\(r)] stale device logs in on day 0")
            _ = try host.loginToken(active, pin: Self.pin, "[\(r)] active device logs in on day 0")

            host.advanceClock(89 * Self.day, "[\(r)] day 89")
            _ = try host.loginToken(active, pin: Self.pin, "[\(r)] active device logs in on day 89")
            host.expectRegistrations([t1: stale.deviceId, t2: active.deviceId], "on day 89")

            host.advanceClock(2 * Self.day, "[\(r)] day 91")
            expectReply(
                host.login(stale, pin: Self.pin), 401, "certificates_expired", "[\(r)] stale device logs in after 91 days")
            expectReply(
                host.login(stale, pin: Self.pin), 401, "terminal_unregistered", "[\(r)] stale device logs in once more")
            expectReply(host.unregister(stale), 401, "terminal_unregistered", "[\(r)] stale device unregisters")
            let freed = expectReply(host.terminalState(t1), 200, nil, "[\(r)] back office \(t1)")
            #expect(freed.bool("registered") == false, "[\(r)] \(t1) still registered: \(freed)")
            host.expectRegistrations([t2: active.deviceId], "after certificate expiry")

            // The device that logged in on day 89 is only two days stale.
            _ = try host.loginToken(active, pin: Self.pin, "[\(r)] active device logs in on day 91")

            // The freed terminal takes a new device, and the stale installation can come back.
            let fresh = try host.portalRegister(
                newDevice("cert-fresh"), terminal: t1, pin: Self.pin, "[\(r)] register \(t1) again")
            _ = try host.loginToken(fresh, pin: Self.pin, "[\(r)] the new device logs in")
            host.expectRegistrations([t1: fresh.deviceId, t2: active.deviceId], "at the end")
        }
    }

    @Test("a device registered more than 90 days ago that never logged in expires too")
    func certificateExpiryWithoutLogin() throws {
        try withSandbox { sandbox in
            let host = try sandbox.host(regionIDs.first ?? "EU")
            let r = host.region
            let terminal = try #require(host.fixture.terminals.first { $0.allows("portal") }).id
            let device = try host.portalRegister(newDevice("cert-never"), terminal: terminal, pin: Self.pin, "[\(r)] register")
            host.advanceClock(91 * Self.day, "[\(r)] day 91")
            expectReply(host.login(device, pin: Self.pin), 401, "certificates_expired", "[\(r)] first login after 91 days")
            expectReply(host.login(device, pin: Self.pin), 401, "terminal_unregistered", "[\(r)] login again")
            host.expectRegistrations([:], "after certificate expiry")
        }
    }

    @Test("the back office unregisters a terminal: its device is out, its session ends, the terminal is free")
    func backOfficeUnregister() throws {
        try withSandbox { sandbox in
            let host = try sandbox.host(regionIDs.first ?? "EU")
            let r = host.region
            let terminal = try #require(host.fixture.terminals.first { $0.allows("registrationCode") }).id
            let device = try host.tokenRegister(newDevice("bo-unreg"), terminal: terminal, pin: Self.pin, "[\(r)] register")
            let session = try host.loginToken(device, pin: Self.pin, "[\(r)] login")

            expectReply(host.backOfficeUnregister(terminal), 204, nil, "[\(r)] back office unregisters \(terminal)")
            host.expectRegistrations([:], "after the back office unregistered \(terminal)")
            let ended = host.session(session)
            expectReply(ended, 401, nil, "[\(r)] the device's session after the back office unregistered it")
            #expect(
                ["session_expired", "terminal_unregistered"].contains(ended.errorCode ?? ""),
                "[\(r)] session of an unregistered device: \(ended)")
            expectReply(
                host.login(device, pin: Self.pin), 401, "terminal_unregistered",
                "[\(r)] login after the back office unregistered it")
            let status = expectReply(host.deviceStatus(device), 200, nil, "[\(r)] device status")
            #expect(status.bool("registered") == false, "[\(r)] \(status)")
            let again = try host.tokenRegister(device.deviceId, terminal: terminal, pin: Self.pin, "[\(r)] register again")
            _ = try host.loginToken(again, pin: Self.pin, "[\(r)] login after registering again")
            host.expectRegistrations([terminal: device.deviceId], "at the end")
        }
    }

    @Test("POST /_sandbox/reset forgets devices, sessions, codes, tokens and mail; fixtures stay")
    func reset() throws {
        try withSandbox { sandbox in
            let host = try sandbox.host(regionIDs.first ?? "EU")
            let r = host.region
            let t1 = try #require(host.fixture.terminals.first { $0.allows("portal") }).id
            let t2 = try #require(
                host.fixture.terminals.first { $0.id != t1 && $0.allows("registrationCode") && $0.allows("portal") }
            ).id
            // The token locks t2 against challenge codes: C's challenge goes to a third terminal.
            let t3 = try #require(host.fixture.terminals.first { $0.id != t1 && $0.id != t2 && $0.allows("portal") }).id

            let a = try host.portalRegister(newDevice("reset-a"), terminal: t1, pin: Self.pin, "[\(r)] register A")
            let session = try host.loginToken(a, pin: Self.pin, "[\(r)] login A")
            let token = try #require(
                expectReply(
                    host.backOfficeToken(terminal: t2, email: "reset@example.com"), 201, nil, "[\(r)] e-mail a token for \(t2)"
                )
                .string("registrationToken"))
            let c = newDevice("reset-c")
            let challenge = try #require(
                expectReply(host.beginRegistration(c), 201, nil, "[\(r)] C begins").string("challengeCode"))
            let code = try #require(
                expectReply(host.confirm(challenge: challenge, terminal: t3), 200, nil, "[\(r)] confirm C").string(
                    "backofficeCode"))
            let waiting = newDevice("reset-w")
            let pending = try #require(
                expectReply(host.beginRegistration(waiting), 201, nil, "[\(r)] W begins").string("challengeCode"))
            #expect(!((host.mailbox().array("messages")) ?? []).isEmpty, "[\(r)] the e-mail is not in the mailbox")

            // Clock control refuses what it must.
            expectReply(
                host.service.call("POST", "/_sandbox/clock", body: ["advanceSeconds": -5]), 400, "invalid_request",
                "[\(r)] move the clock backwards")
            expectReply(
                host.service.call("POST", "/_sandbox/clock", body: ["set": "2001-01-01T00:00:00Z"]), 400, "invalid_request",
                "[\(r)] set the clock into the past")

            expectReply(host.reset(), 204, nil, "[\(r)] reset")

            let afterSession = host.session(session)
            expectReply(afterSession, 401, nil, "[\(r)] A's session after reset")
            #expect(
                ["unauthorized", "session_expired"].contains(afterSession.errorCode ?? ""),
                "[\(r)] session after reset: \(afterSession)")
            let afterLogin = host.login(a, pin: Self.pin)
            expectReply(afterLogin, 401, nil, "[\(r)] A logs in after reset")
            #expect(
                ["unauthorized", "terminal_unregistered"].contains(afterLogin.errorCode ?? ""),
                "[\(r)] login after reset: \(afterLogin)")
            host.expectRegistrations([:], "after reset")
            let mail = expectReply(host.mailbox(), 200, nil, "[\(r)] mailbox after reset")
            #expect((mail.array("messages") ?? []).isEmpty, "[\(r)] mail survived the reset: \(mail)")

            expectNotValid(
                host.verifyToken(token), 404, "registration_token_invalid", "[\(r)] verify a token from before the reset")
            expectReply(
                host.beginToken(token, c), 404, "registration_token_invalid", "[\(r)] begin with a token from before the reset")
            expectNotValid(host.verifyCode(code), 404, "backoffice_code_invalid", "[\(r)] verify a code from before the reset")
            expectReply(
                host.complete(c, code: code, pin: Self.pin), 404, "backoffice_code_invalid",
                "[\(r)] complete with a code from before the reset")
            expectReply(
                host.confirm(challenge: pending, terminal: t2), 404, "challenge_not_found",
                "[\(r)] confirm a challenge from before the reset")
            host.expectRegistrations([:], "after the stale codes")

            // Fixtures are back: every merchant and terminal, all free; A's installation registers afresh.
            let list = expectReply(host.merchants(), 200, nil, "[\(r)] back office after reset")
            let terminals = (list.array("merchants") as? [[String: Any]] ?? []).flatMap {
                $0["terminals"] as? [[String: Any]] ?? []
            }
            #expect(
                Set(terminals.compactMap { $0["terminalId"] as? String }) == Set(host.fixture.terminals.map(\.id)),
                "[\(r)] \(list)")
            let again = try host.portalRegister(a.deviceId, terminal: t1, pin: Self.pin, "[\(r)] A registers after reset")
            _ = try host.loginToken(again, pin: Self.pin, "[\(r)] A logs in after reset")
            host.expectRegistrations([t1: a.deviceId], "at the end")
        }
    }
}
