import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

/// The fields of the seed SDK's `TerminalInfo` (and its nested models). Required ones must hold a
/// value; optional ones must be present (null allowed), since the contract says "every field".
enum SeedModel {
    static let terminalInfoRequired = [
        "terminalId", "merchantId", "merchantName", "address1", "address2", "isRefundAvailable", "isReversalAvailable",
        "currency", "limitAmount", "decimalDigitCount", "profileId", "dynamicProperties", "apmConfig", "apmEnabled",
        "tipEnabled",
    ]
    static let terminalInfoOptional = ["permittedCountries", "maxTipAmount", "maxTipPercentage", "blikEnabled", "terminalCode"]
    static let currencyRequired = ["code", "name"]
    static let currencyOptional = ["unitLength", "isoCode", "exponent"]
    static let dynamicRequired = ["rates", "referenceEnabled"]
    static let dynamicOptional = [
        "privacyPolicyUrl", "cookiesPolicyUrl", "userAgreementUrl", "email", "whatsapp", "phone", "apmTimeout",
        "apmPulling", "apmRefundTimeout", "referencePattern", "blikTimeout", "blikPulling",
    ]
    static let apmRequired = ["brandName", "isActive"]
    static let apmOptional = ["brandFullName", "customId"]

    /// Keys that are missing (or null where a value is required) in `object`, prefixed with `path`.
    static func missing(_ object: [String: Any], required: [String], optional: [String], path: String) -> [String] {
        required.filter { object[$0] == nil || object[$0] is NSNull }.map { "\(path)\($0)" }
            + optional.filter { object[$0] == nil }.map { "\(path)\($0) (optional, but must be present)" }
    }

    static func missingFields(_ info: [String: Any]) -> [String] {
        var missing = Self.missing(info, required: terminalInfoRequired, optional: terminalInfoOptional, path: "")
        if let currency = info["currency"] as? [String: Any] {
            missing += Self.missing(currency, required: currencyRequired, optional: currencyOptional, path: "currency.")
        }
        if let dynamic = info["dynamicProperties"] as? [String: Any] {
            missing += Self.missing(dynamic, required: dynamicRequired, optional: dynamicOptional, path: "dynamicProperties.")
        }
        for (index, apm) in (info["apmConfig"] as? [[String: Any]] ?? []).enumerated() {
            missing += Self.missing(apm, required: apmRequired, optional: apmOptional, path: "apmConfig[\(index)].")
        }
        return missing
    }
}

@Suite("Terminal lifecycle walk, on every region whose terminals register through the portal")
struct WalkTests {
    /// PagBank's devices register only by a partner app's activation, with no secure code
    /// (docs/pagbank.md): TapOnPartnerTests walk that region. Geopagos' devices get their session
    /// from a reader token (docs/geopagos.md): GeopagosTests walk that one.
    static let walkedRegions = regionIDs.filter { $0 != "PAGBANK" && $0 != "GEOPAGOS" }

    static let pin = "2468"
    static let newPin = "135790"
    static let wrongPin = "0000"

    @Test(
        "portal and token activation, login, info, session expiry, PIN lock and unlock, secret code, logout, unregister",
        arguments: walkedRegions)
    func walk(region: String) throws {
        try withSandbox(regions: [region]) { sandbox in try Self.walk(try sandbox.host(region)) }
    }

    static func walk(_ host: Host) throws {
        let region = host.region
        let fixture = host.fixture
        // Terminals: T1 (portal) prefers one without auto-login so the PIN rules apply; T2 (merchant
        // token) is another terminal of the same merchant; T3 (back-office token by e-mail) any other.
        // Each is one whose registerOptions allow the way it is registered.
        let merchant = try #require(
            fixture.merchants.first { m in
                m.terminals(allowing: "portal").contains { p in
                    m.terminals(allowing: "registrationCode").contains { $0.id != p.id }
                }
            }, "[\(region)] no merchant with a portal terminal and another token terminal in merchants.json")
        let portal = merchant.terminals(allowing: "portal")
        let t1 = portal.first { !$0.autoLogin } ?? portal[0]
        let tokens = merchant.terminals(allowing: "registrationCode").filter { $0.id != t1.id }
        let t2 = tokens.first { $0.autoLogin } ?? tokens[0]
        let t3 = try #require(
            fixture.terminals.first { $0.id != t1.id && $0.id != t2.id && $0.allows("registrationCode") },
            "[\(region)] merchants.json needs a third terminal that allows registrationCode")

        // The environment: currency and session length come from the host itself.
        let environment = expectReply(host.environment(), 200, nil, "[\(region)] GET /v1/environment")
        let sessionLength = try #require(environment["sessionLengthSeconds"] as? Int, "\(environment)")
        let currency = try #require(RegionFacts.all.first { $0.id == region }?.currency)
        #expect(environment.string("currency") == currency, "[\(region)] environment currency: \(environment)")
        let clock = expectReply(host.clock(), 200, nil, "[\(region)] GET /_sandbox/clock")
        expectTime(clock["now"], "[\(region)] clock now")

        // The back office lists every fixture terminal, none registered yet.
        let listed = expectReply(host.merchants(), 200, nil, "[\(region)] back office merchants")
        let merchants = listed.array("merchants") as? [[String: Any]] ?? []
        #expect(
            Set(merchants.compactMap { $0["merchantId"] as? String }) == Set(fixture.merchants.map(\.id)),
            "[\(region)] back office merchants: \(listed)")
        // Each with its owner's address, which a token e-mail may be sent to (never by default).
        for merchant in fixture.merchants {
            let entry = merchants.first { $0["merchantId"] as? String == merchant.id } ?? [:]
            #expect(entry["email"] as? String == merchant.email, "[\(region)] \(merchant.id) owner e-mail: \(entry)")
        }
        let listedTerminals = merchants.flatMap { $0["terminals"] as? [[String: Any]] ?? [] }
        #expect(
            Set(listedTerminals.compactMap { $0["terminalId"] as? String }) == Set(fixture.terminals.map(\.id)),
            "[\(region)] back office terminals: \(listed)")
        #expect(listedTerminals.allSatisfy { $0["registered"] as? Bool == false }, "[\(region)] a terminal is taken at start")
        host.expectRegistrations([:], "start")

        // MARK: Portal activation, device A on T1
        let deviceA = newDevice("walk-a")
        let support = expectReply(host.supportNumber(deviceA), 200, nil, "[\(region)] support number")
        #expect(matches(support.string("supportNumber"), #"^SN-\d{8}$"#), "[\(region)] support number: \(support)")
        let supportAgain = expectReply(host.supportNumber(deviceA), 200, nil, "[\(region)] support number again")
        #expect(
            supportAgain.string("supportNumber") == support.string("supportNumber"), "[\(region)] support number is not stable")

        let begun = expectReply(host.beginRegistration(deviceA), 201, nil, "[\(region)] portal: begin registration")
        let challenge = try #require(begun.string("challengeCode"), "\(begun)")
        #expect(
            matches(challenge, "^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}$"),
            "[\(region)] challenge code shape: \(challenge)")
        expectTime(begun["expiresAt"], "[\(region)] challenge expiresAt")

        // The back office types it in lower case without the dash: accepted.
        let typed = challenge.replacingOccurrences(of: "-", with: "").lowercased()
        let confirmed = expectReply(
            host.confirm(challenge: typed, terminal: t1.id), 200, nil,
            "[\(region)] portal: back office confirms \(typed) for \(t1.id)")
        let code = try #require(confirmed.string("backofficeCode"), "\(confirmed)")
        #expect(matches(code, "^\(region)-\\d{6}$"), "[\(region)] back-office code shape: \(code)")
        #expect(confirmed.string("terminalId") == t1.id, "[\(region)] confirm: \(confirmed)")
        expectTime(confirmed["expiresAt"], "[\(region)] back-office code expiresAt")

        let verified = expectReply(host.verifyCode(code), 200, nil, "[\(region)] portal: verify back-office code")
        #expect(verified.bool("valid") == true, "[\(region)] portal: verify: \(verified)")

        expectReply(
            host.complete(deviceA, code: code, pin: "12"), 400, "invalid_request",
            "[\(region)] portal: complete with a 2-digit PIN")
        let completed = expectReply(host.complete(deviceA, code: code, pin: pin), 200, nil, "[\(region)] portal: complete")
        #expect(completed.string("terminalId") == t1.id, "[\(region)] complete: \(completed)")
        expectTime(completed["registeredAt"], "[\(region)] registeredAt")
        var a = DeviceCredential(
            deviceId: deviceA, secret: try #require(completed.string("deviceSecret"), "\(completed)"), terminalId: t1.id)

        let state1 = expectReply(host.terminalState(t1.id), 200, nil, "[\(region)] back office terminal \(t1.id)")
        #expect(state1.bool("registered") == true && state1.string("deviceId") == deviceA, "[\(region)] \(state1)")
        #expect(state1.string("merchantId") == merchant.id && state1.bool("locked") == false, "[\(region)] \(state1)")
        #expect(state1["failedAttempts"] as? Int == 0, "[\(region)] \(state1)")
        let status = expectReply(host.deviceStatus(a), 200, nil, "[\(region)] device A status")
        #expect(status.bool("registered") == true && status.string("terminalId") == t1.id, "[\(region)] \(status)")
        host.expectRegistrations([t1.id: deviceA], "after portal activation")

        // MARK: Token activation by the merchant API, device B on T2
        let deviceB = newDevice("walk-b")
        let issued = expectReply(
            host.merchantToken(key: merchant.apiKey, terminal: t2.id), 201, nil,
            "[\(region)] merchant issues a token for \(t2.id)")
        let token = try #require(issued.string("registrationToken"), "\(issued)")
        #expect(matches(token, "^rt_\(region.lowercased())_[0-9a-f]{32}$"), "[\(region)] token shape: \(token)")
        #expect(issued.string("terminalId") == t2.id, "[\(region)] \(issued)")
        expectTime(issued["expiresAt"], "[\(region)] token expiresAt")
        #expect(
            issued.string("qrPayload") == "taponmobile://register?environment=\(region)&token=\(token)",
            "[\(region)] qrPayload: \(issued)")
        #expect(issued.string("qrSvg")?.contains("<svg") == true, "[\(region)] qrSvg is not SVG")
        let b = try host.tokenRegister(deviceB, token: token, terminal: t2.id, pin: pin, "[\(region)] merchant token")
        host.expectRegistrations([t1.id: deviceA, t2.id: deviceB], "after merchant token activation")

        // MARK: Token by the back office with an e-mail, device C on T3
        let email = "walk-\(region.lowercased())@example.com"
        let mailed = expectReply(
            host.backOfficeToken(terminal: t3.id, email: email), 201, nil, "[\(region)] back office issues a token by e-mail")
        let mailedToken = try #require(mailed.string("registrationToken"), "\(mailed)")
        #expect(mailed.string("emailedTo") == email, "[\(region)] emailedTo: \(mailed)")
        let mailbox = expectReply(host.mailbox(), 200, nil, "[\(region)] mailbox")
        let newest = (mailbox.array("messages") as? [[String: Any]])?.first ?? [:]
        #expect(newest["to"] as? String == email, "[\(region)] newest mail: \(mailbox)")
        #expect(
            (newest["body"] as? String)?.contains(mailedToken) == true,
            "[\(region)] the mail does not carry the token: \(mailbox)")
        expectTime(newest["createdAt"], "[\(region)] mail createdAt")
        let deviceC = newDevice("walk-c")
        _ = try host.tokenRegister(deviceC, token: mailedToken, terminal: t3.id, pin: pin, "[\(region)] e-mailed token")
        host.expectRegistrations([t1.id: deviceA, t2.id: deviceB, t3.id: deviceC], "after e-mailed token activation")

        let own = expectReply(host.merchantTerminals(key: merchant.apiKey), 200, nil, "[\(region)] merchant terminals")
        let ownTerminals = own.array("terminals") as? [[String: Any]] ?? []
        #expect(
            Set(ownTerminals.compactMap { $0["terminalId"] as? String }) == Set(merchant.terminals.map(\.id)),
            "[\(region)] merchant lists other terminals than its own: \(own)")
        for id in [t1.id, t2.id] {
            #expect(
                ownTerminals.first { $0["terminalId"] as? String == id }?["registered"] as? Bool == true,
                "[\(region)] merchant list: \(id) not registered: \(own)")
        }

        // MARK: Login
        if !t1.autoLogin {
            expectReply(host.login(a, pin: nil), 400, "pin_required", "[\(region)] login without PIN on \(t1.id) (no auto-login)")
        }
        if t2.autoLogin {
            _ = try host.loginToken(b, pin: nil, "[\(region)] login without PIN on \(t2.id) (auto-login)")
        }
        let login = expectReply(host.login(a, pin: pin), 201, nil, "[\(region)] login A")
        #expect(login.string("terminalId") == t1.id, "[\(region)] login: \(login)")
        expectTime(login["expiresAt"], "[\(region)] session expiresAt")
        var session = try #require(login.string("sessionToken"), "\(login)")
        if let expires = parseTime(login["expiresAt"]), let now = parseTime(clock["now"]) {
            let length = expires.timeIntervalSince(now)
            #expect(
                abs(length - Double(sessionLength)) < 30,
                "[\(region)] session lives \(length) s, the environment says \(sessionLength) s")
        }

        let current = expectReply(host.session(session), 200, nil, "[\(region)] current session")
        #expect(current.string("terminalId") == t1.id, "[\(region)] current session: \(current)")
        expectTime(current["expiresAt"], "[\(region)] current session expiresAt")

        // MARK: Terminal info and info-init
        let info = expectReply(host.terminalInfo(session), 200, nil, "[\(region)] terminal info")
        if info.status == 200 {
            #expect(info.string("terminalId") == t1.id, "[\(region)] terminal info names another terminal: \(info)")
            #expect(info.string("merchantId") == merchant.id, "[\(region)] terminal info names another merchant: \(info)")
            #expect(info.string("merchantName") == merchant.name, "[\(region)] merchantName: \(info)")
            let infoCurrency = info["currency"] as? [String: Any] ?? [:]
            #expect(infoCurrency["code"] as? String == currency, "[\(region)] terminal currency: \(info)")
            if let exponent = environment["currencyExponent"] as? Int {
                #expect(info["decimalDigitCount"] as? Int == exponent, "[\(region)] decimalDigitCount: \(info)")
            }
            let missing = SeedModel.missingFields(info.object)
            #expect(missing.isEmpty, "[\(region)] terminal info lacks seed fields: \(missing)")
        }

        let infoInit = expectReply(host.infoInit(session), 200, nil, "[\(region)] info-init")
        #expect(infoInit.bool("isAutoLoginEnabled") == t1.autoLogin, "[\(region)] info-init: \(infoInit)")
        let options = infoInit.array("registerOptions") as? [String]
        #expect(
            options.map { Set($0).isSubset(of: ["portal", "registrationCode"]) } == true, "[\(region)] info-init: \(infoInit)")
        if let expected = t1.registerOptions {
            #expect(options.map(Set.init) == Set(expected), "[\(region)] info-init registerOptions: \(infoInit)")
        }

        let relinked = expectReply(host.relink(session), 200, nil, "[\(region)] relink")
        expectTime(relinked["relinkedAt"], "[\(region)] relinkedAt")

        // MARK: Session expiry on the host's clock
        host.advanceClock(sessionLength + 1, "[\(region)] session expiry")
        expectReply(host.session(session), 401, "session_expired", "[\(region)] current session after \(sessionLength + 1) s")
        expectReply(host.terminalInfo(session), 401, "session_expired", "[\(region)] terminal info after expiry")

        // Log in again; a newer login ends the older session.
        let older = try host.loginToken(a, pin: pin, "[\(region)] login again after expiry")
        session = try host.loginToken(a, pin: pin, "[\(region)] a second login")
        expectReply(host.session(older), 401, "session_expired", "[\(region)] the session a newer login replaced")
        expectReply(host.session(session), 200, nil, "[\(region)] the newest session")

        // MARK: Wrong PIN five times locks the device
        for attempt in 1...4 {
            expectReply(host.login(a, pin: wrongPin), 401, "invalid_pin", "[\(region)] wrong PIN #\(attempt)")
        }
        expectReply(host.login(a, pin: wrongPin), 423, "secure_code_locked", "[\(region)] wrong PIN #5")
        expectReply(host.login(a, pin: pin), 423, "secure_code_locked", "[\(region)] right PIN while locked")
        let locked = expectReply(host.terminalState(t1.id), 200, nil, "[\(region)] back office sees the lock")
        #expect(locked.bool("locked") == true, "[\(region)] back office: \(locked)")
        let lockedList = expectReply(host.merchantTerminals(key: merchant.apiKey), 200, nil, "[\(region)] merchant sees the lock")
        #expect(
            (lockedList.array("terminals") as? [[String: Any]])?.first { $0["terminalId"] as? String == t1.id }?["locked"]
                as? Bool
                == true, "[\(region)] merchant list: \(lockedList)")

        expectReply(host.unlock(t1.id), 204, nil, "[\(region)] back office unlocks \(t1.id)")
        let unlocked = expectReply(host.terminalState(t1.id), 200, nil, "[\(region)] back office after unlock")
        #expect(unlocked.bool("locked") == false, "[\(region)] \(unlocked)")
        #expect(unlocked["failedAttempts"] as? Int == 0, "[\(region)] \(unlocked)")
        session = try host.loginToken(a, pin: pin, "[\(region)] login after unlock")

        // MARK: Update the secret code
        expectReply(
            host.updateSecretCode(session, old: wrongPin, new: newPin), 401, "invalid_pin",
            "[\(region)] secret code: wrong old code")
        expectReply(
            host.updateSecretCode(session, old: pin, new: "12ab"), 400, "invalid_request", "[\(region)] secret code: bad new code"
        )
        expectReply(host.updateSecretCode(session, old: pin, new: newPin), 204, nil, "[\(region)] secret code: old → new")
        expectReply(host.login(a, pin: pin), 401, "invalid_pin", "[\(region)] login with the old code")
        session = try host.loginToken(a, pin: newPin, "[\(region)] login with the new code")

        // MARK: Logout
        expectReply(host.logout(session), 204, nil, "[\(region)] logout")
        expectReply(host.session(session), 401, "session_expired", "[\(region)] session after logout")
        expectReply(host.terminalInfo(session), 401, "session_expired", "[\(region)] terminal info after logout")

        // MARK: Unregister frees the terminal (and ends a session in use, though the host has seen it just before)
        let lastSession = try host.loginToken(a, pin: newPin, "[\(region)] login before unregistering")
        expectReply(host.terminalInfo(lastSession), 200, nil, "[\(region)] terminal info before unregistering")
        var wrong = a
        wrong.secret = "ds_wrong"
        expectReply(host.unregister(wrong), 401, "unauthorized", "[\(region)] unregister with a wrong secret")
        host.expectRegistrations([t1.id: deviceA, t2.id: deviceB, t3.id: deviceC], "after a refused unregister")
        expectReply(host.unregister(a), 204, nil, "[\(region)] unregister A")
        expectReply(host.terminalInfo(lastSession), 401, "terminal_unregistered", "[\(region)] the session of the unregistered device")
        let freed = expectReply(host.terminalState(t1.id), 200, nil, "[\(region)] back office after unregister")
        #expect(freed.bool("registered") == false, "[\(region)] \(t1.id) still registered: \(freed)")
        #expect(freed["deviceId"] == nil || freed["deviceId"] is NSNull, "[\(region)] \(t1.id) still names a device: \(freed)")
        host.expectRegistrations([t2.id: deviceB, t3.id: deviceC], "after unregister")
        expectReply(host.login(a, pin: newPin), 401, "terminal_unregistered", "[\(region)] login of the unregistered device")
        expectReply(host.unregister(a), 401, "terminal_unregistered", "[\(region)] unregister again")
        let gone = expectReply(host.deviceStatus(a), 200, nil, "[\(region)] device status after unregister")
        #expect(gone.bool("registered") == false, "[\(region)] device status after unregister: \(gone)")

        // The terminal can be registered again (by the same installation).
        a = try host.portalRegister(deviceA, terminal: t1.id, pin: pin, "[\(region)] register \(t1.id) again")
        _ = try host.loginToken(a, pin: pin, "[\(region)] login after registering again")
        host.expectRegistrations([t1.id: deviceA, t2.id: deviceB, t3.id: deviceC], "at the end")
    }
}
