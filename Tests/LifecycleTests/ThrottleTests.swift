import EnvironmentHost
import Foundation
import HostTestSupport
import SandboxHTTP
import SandboxTestSupport
import Testing

/// Codes and secrets a person types are throttled per client address and per device
/// (docs/terminal-lifecycle.md, "Throttled codes"): 20 wrong ones a minute per address, 5 per
/// device, then `429 too_many_attempts` with `Retry-After` until the oldest leaves the minute.
/// The lock is a wait: the code's owner uses it once the lock passes. Time moves on the sandbox
/// clock, never by sleeping.
@Suite("Throttled codes and secrets")
struct ThrottleTests {
    static let pin = "4321"
    static let region = "EU"
    /// Addresses from the documentation ranges: in-process requests carry whatever a test says.
    static let attacker = "203.0.113.7"
    static let bystander = "198.51.100.20"

    /// One host of ``region`` on its own database and clock, with its fixtures.
    struct Running {
        let inProcess: InProcessHost
        let host: Host

        init() throws {
            inProcess = try InProcessHost(region: ThrottleTests.region)
            host = Host(service: inProcess.service, fixture: try MerchantsFile.load().region(ThrottleTests.region))
        }

        /// A request answered in-process, as if it came from `address` (nil: no address, as in-process).
        func call(
            _ method: String, _ path: String, body: [String: Any], from address: String?, bearer: String? = nil
        ) throws -> Answer {
            var headers = ["content-type": "application/json"]
            if let bearer { headers["authorization"] = "Bearer \(bearer)" }
            let response = inProcess.host.respond(
                to: Request(
                    method: method, path: path, headers: headers, body: Array(try JSONSerialization.data(withJSONObject: body)),
                    clientAddress: address))
            return Answer(response: response)
        }

        /// A portal terminal's fresh back-office code for a new device's challenge.
        func backOfficeCode(_ label: String) throws -> (device: String, code: String, terminal: String) {
            let terminal = try #require(host.fixture.terminals.first { $0.allows("portal") }?.id, "no portal terminal")
            let device = newDevice(label)
            let challenge = try #require(expectReply(host.beginRegistration(device), 201, nil, "begin").string("challengeCode"))
            let code = try #require(
                expectReply(host.confirm(challenge: challenge, terminal: terminal), 200, nil, "confirm").string("backofficeCode"))
            return (device, code, terminal)
        }

        func stop() { inProcess.stop() }
    }

    struct Answer: CustomStringConvertible {
        let response: Response
        var status: Int { response.status }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var retryAfter: String? { response.headers.first { $0.0.lowercased() == "retry-after" }?.1 }
        /// `Retry-After` in 1...60, as the minute's lock allows (the sandbox clock also runs in real time).
        var waitsAtMostAMinute: Bool { retryAfter.flatMap(Int.init).map { (1...60).contains($0) } ?? false }
        var description: String { "\(status) \(String(decoding: response.body, as: UTF8.self))" }
    }

    /// A six-digit code of the region that is not `live`.
    static func wrongCode(_ n: Int, not live: String) -> String {
        let code = String(format: "\(region)-%06d", n)
        return code == live ? String(format: "\(region)-%06d", n + 500_000) : code
    }

    @Test("a loop of wrong back-office codes from one address gets 429 after 20; the owner completes there once the lock passes")
    func bruteForceStopsAndOwnerCompletes() throws {
        let running = try Running()
        defer { running.stop() }
        let (owner, code, terminal) = try running.backOfficeCode("owner")
        // A bounded brute force: at most 1,000 guesses, and it must be stopped long before.
        var wrong = 0
        var stopped: Answer?
        for n in 0..<1000 {
            let answer = try running.call(
                "POST", "/terminal/v1/registrations/verify-code", body: ["code": Self.wrongCode(n, not: code)], from: Self.attacker)
            if answer.status == 429 {
                stopped = answer
                break
            }
            #expect(answer.status == 200 && answer.json["reason"] as? String == "backoffice_code_invalid", "guess \(n): \(answer)")
            wrong += 1
        }
        #expect(wrong == 20, "wrong codes answered before the throttle: \(wrong)")
        let throttled = try #require(stopped, "1,000 wrong codes from one address and no 429")
        #expect(throttled.errorCode == "too_many_attempts", "\(throttled)")
        #expect(throttled.waitsAtMostAMinute, "Retry-After: \(String(describing: throttled.retryAfter))")

        // While locked, the right code is refused from that address too (else the loop would find it).
        let locked = try running.call("POST", "/terminal/v1/registrations/verify-code", body: ["code": code], from: Self.attacker)
        #expect(locked.status == 429 && locked.errorCode == "too_many_attempts", "\(locked)")
        let completeBody: [String: Any] = ["deviceId": owner, "backofficeCode": code, "pin": Self.pin]
        let early = try running.call("POST", "/terminal/v1/registrations/complete", body: completeBody, from: Self.attacker)
        #expect(early.status == 429 && early.waitsAtMostAMinute, "\(early)")
        // Another address is not locked: it sees the code still valid (the guesses did not burn it).
        let elsewhere = try running.call("POST", "/terminal/v1/registrations/verify-code", body: ["code": code], from: Self.bystander)
        #expect(elsewhere.status == 200 && elsewhere.json["valid"] as? Bool == true, "\(elsewhere)")

        // Half a minute on, still locked, for at most the other half; a minute on, the owner
        // completes from the same address with the same code.
        running.inProcess.clock.advance(by: 30)
        let later = try running.call("POST", "/terminal/v1/registrations/complete", body: completeBody, from: Self.attacker)
        #expect(later.status == 429 && Int(later.retryAfter ?? "") ?? 99 <= 30, "\(later)")
        running.inProcess.clock.advance(by: 30)
        let done = try running.call("POST", "/terminal/v1/registrations/complete", body: completeBody, from: Self.attacker)
        #expect(done.status == 200 && done.json["terminalId"] as? String == terminal, "\(done)")
        #expect((done.json["deviceSecret"] as? String)?.isEmpty == false, "\(done)")
    }

    @Test("five wrong back-office codes from one device lock that device for a minute, not another device")
    func deviceLimit() throws {
        let running = try Running()
        defer { running.stop() }
        let (owner, code, terminal) = try running.backOfficeCode("device-limit")
        // No client address (in-process): only the device counts.
        for n in 0..<5 {
            let answer = try running.call(
                "POST", "/terminal/v1/registrations/complete",
                body: ["deviceId": owner, "backofficeCode": Self.wrongCode(n, not: code), "pin": Self.pin], from: nil)
            #expect(answer.errorCode == "backoffice_code_invalid", "wrong code \(n): \(answer)")
        }
        let right: [String: Any] = ["deviceId": owner, "backofficeCode": code, "pin": Self.pin]
        let locked = try running.call("POST", "/terminal/v1/registrations/complete", body: right, from: nil)
        #expect(locked.status == 429 && locked.errorCode == "too_many_attempts" && locked.waitsAtMostAMinute, "\(locked)")
        // Another device is still answered on its merits.
        let other = try running.call(
            "POST", "/terminal/v1/registrations/complete",
            body: ["deviceId": newDevice("other"), "backofficeCode": code, "pin": Self.pin], from: nil)
        #expect(other.errorCode == "backoffice_code_wrong_device", "\(other)")
        running.inProcess.clock.advance(by: 60)
        let done = try running.call("POST", "/terminal/v1/registrations/complete", body: right, from: nil)
        #expect(done.status == 200 && done.json["terminalId"] as? String == terminal, "\(done)")
    }

    /// Every check of a code or secret a person types, with a wrong value.
    enum Check: String, CaseIterable, CustomTestStringConvertible {
        case challengeConfirm, challengeLookup, registrationToken, tokenBegin, tokenEnd, loginPin, secretCode
        var testDescription: String { rawValue }
    }

    @Test("each typed code or secret: 20 wrong ones from one address, then 429 with Retry-After there and not elsewhere", arguments: Check.allCases)
    func everyCheckIsThrottled(_ check: Check) throws {
        let running = try Running()
        defer { running.stop() }
        let host = running.host
        let key = host.backOfficeKey
        var session: String?
        var credential: DeviceCredential?
        if check == .loginPin || check == .secretCode {
            let terminal = try #require(host.fixture.terminals.first { $0.allows("portal") && !$0.autoLogin }?.id, "no PIN terminal")
            credential = try host.portalRegister(newDevice("pin"), terminal: terminal, pin: Self.pin, "register")
            session = try host.loginToken(try #require(credential), pin: Self.pin, "login")
        }
        func attempt(_ n: Int, from address: String) throws -> Answer {
            let token = "rt_\(Self.region.lowercased())_" + String(format: "%032x", n + 1)
            let wrongPin = String(1000 + n)  // never 4321
            switch check {
            case .challengeConfirm:
                return try running.call(
                    "POST", "/backoffice/v1/challenges/confirm",
                    body: ["challengeCode": "ZZZZ-ZZZZ", "terminalId": host.fixture.terminals[0].id],
                    from: address, bearer: key)
            case .challengeLookup:
                return try running.call("GET", "/backoffice/v1/challenges/ZZZZ-ZZZZ", body: [:], from: address, bearer: key)
            case .registrationToken:
                return try running.call("POST", "/terminal/v1/token-registrations/verify", body: ["registrationToken": token], from: address)
            case .tokenBegin:
                return try running.call(
                    "POST", "/terminal/v1/token-registrations/begin",
                    body: ["registrationToken": token, "deviceId": newDevice("begin"), "deviceModel": "iPhone15,2"], from: address)
            case .tokenEnd:
                return try running.call(
                    "POST", "/terminal/v1/token-registrations/end",
                    body: ["registrationToken": token, "deviceId": newDevice("end"), "pin": Self.pin], from: address)
            case .loginPin:
                var body = try #require(credential).body
                body["pin"] = wrongPin
                return try running.call("POST", "/terminal/v1/sessions", body: body, from: address)
            case .secretCode:
                return try running.call(
                    "PUT", "/terminal/v1/secret-code", body: ["oldSecretCode": wrongPin, "newSecretCode": "2468"], from: address,
                    bearer: try #require(session))
            }
        }
        for n in 0..<20 {
            let answer = try attempt(n, from: Self.attacker)
            #expect(answer.status != 429 && answer.status < 500, "[\(check)] wrong value \(n): \(answer)")
        }
        let throttled = try attempt(20, from: Self.attacker)
        #expect(throttled.status == 429 && throttled.errorCode == "too_many_attempts", "[\(check)] the 21st: \(throttled)")
        #expect(throttled.waitsAtMostAMinute, "[\(check)] \(throttled.response.headers)")
        let elsewhere = try attempt(21, from: Self.bystander)
        #expect(elsewhere.status != 429, "[\(check)] from another address: \(elsewhere)")
    }

    @Test("the secure code's own lock stays: the fifth wrong code locks the device (423) until the back office unlocks it")
    func secureCodeLockStays() throws {
        let running = try Running()
        defer { running.stop() }
        let host = running.host
        let terminal = try #require(host.fixture.terminals.first { $0.allows("portal") && !$0.autoLogin }?.id, "no PIN terminal")
        let credential = try host.portalRegister(newDevice("lock"), terminal: terminal, pin: Self.pin, "register")
        for n in 1...4 { expectReply(host.login(credential, pin: "000\(n)"), 401, "invalid_pin", "wrong code \(n)") }
        expectReply(host.login(credential, pin: "0005"), 423, "secure_code_locked", "fifth wrong code")
        // The throttle's minute passing does not lift the device's lock: only the back office does.
        _ = host.advanceClock(120, "two minutes")
        expectReply(host.login(credential, pin: Self.pin), 423, "secure_code_locked", "right code on a locked device")
        expectReply(host.unlock(terminal), 204, nil, "unlock")
        expectReply(host.login(credential, pin: Self.pin), 201, nil, "login after unlock")
    }

    @Test("over real sockets: 127.0.0.2 guessing codes is stopped after 20 while 127.0.0.1 registers with the live code")
    func loopbackAttackerAndOwner() throws {
        let running = try Running()
        defer { running.stop() }
        let (owner, code, terminal) = try running.backOfficeCode("loopback")
        let port = try #require(URLComponents(string: running.inProcess.host.url)?.port.map(UInt16.init), "no port")
        let attacker = try RawConnection(port: port, source: "127.0.0.2")
        var statuses: [Int] = []
        for n in 0..<25 {
            let body = "{\"code\":\"\(Self.wrongCode(n, not: code))\"}"
            try attacker.send(
                "POST /terminal/v1/registrations/verify-code HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let response = try attacker.readResponse()
            statuses.append(response.status)
            if response.status == 429 {
                #expect(Int(response.headers["retry-after"] ?? "").map { (1...60).contains($0) } == true, "\(response.headers)")
                #expect(response.text.contains("too_many_attempts"), "\(response.text)")
            }
        }
        #expect(statuses == Array(repeating: 200, count: 20) + Array(repeating: 429, count: 5), "\(statuses)")
        // The owner, on 127.0.0.1 (the test client), is not the attacker's address.
        let verified = expectReply(running.host.verifyCode(code), 200, nil, "owner verifies")
        #expect(verified.bool("valid") == true, "\(verified)")
        let done = expectReply(running.host.complete(owner, code: code, pin: Self.pin), 200, nil, "owner completes")
        #expect(done.string("terminalId") == terminal, "\(done)")
    }
}
