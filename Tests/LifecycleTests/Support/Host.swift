import Foundation
import SandboxTestSupport
import Testing

/// A fresh device installation id.
func newDevice(_ label: String) -> String { "\(label)-\(UUID().uuidString.lowercased())" }

/// One environment host: every call of the contract (docs/terminal-lifecycle.md) as a method,
/// plus the multi-step registrations and the back-office view of who is registered where.
struct Host {
    var service: Service
    var fixture: RegionFixture

    var region: String { service.name }
    var backOfficeKey: String { fixture.backOfficeKey }

    func apiKey(owning terminal: String) -> String? { fixture.merchant(owning: terminal)?.apiKey }

    // MARK: Terminal API

    func supportNumber(_ device: String) -> HTTPReply {
        service.call("POST", "/terminal/v1/support-number", body: ["deviceId": device])
    }

    func beginRegistration(_ device: String, model: String = "iPhone15,2") -> HTTPReply {
        service.call(
            "POST", "/terminal/v1/registrations", body: ["deviceId": device, "deviceModel": model, "osVersion": "18.1"])
    }

    func verifyCode(_ code: String) -> HTTPReply {
        service.call("POST", "/terminal/v1/registrations/verify-code", body: ["code": code])
    }

    func complete(_ device: String, code: String, pin: String?) -> HTTPReply {
        var body: [String: Any] = ["deviceId": device, "backofficeCode": code]
        if let pin { body["pin"] = pin }
        return service.call("POST", "/terminal/v1/registrations/complete", body: body)
    }

    /// `device` is the verifying device's id (our SDK sends it; the seed's call has none).
    func verifyToken(_ token: String, device: String? = nil) -> HTTPReply {
        var body: [String: Any] = ["registrationToken": token]
        if let device { body["deviceId"] = device }
        return service.call("POST", "/terminal/v1/token-registrations/verify", body: body)
    }

    func beginToken(_ token: String, _ device: String, model: String = "iPhone14,5") -> HTTPReply {
        service.call(
            "POST", "/terminal/v1/token-registrations/begin",
            body: ["registrationToken": token, "deviceId": device, "deviceModel": model])
    }

    func endToken(_ token: String, _ device: String, pin: String?) -> HTTPReply {
        var body: [String: Any] = ["registrationToken": token, "deviceId": device]
        if let pin { body["pin"] = pin }
        return service.call("POST", "/terminal/v1/token-registrations/end", body: body)
    }

    func login(_ device: DeviceCredential, pin: String?) -> HTTPReply {
        var body = device.body
        if let pin { body["pin"] = pin }
        return service.call("POST", "/terminal/v1/sessions", body: body)
    }

    func unregister(_ device: DeviceCredential) -> HTTPReply {
        service.call("POST", "/terminal/v1/unregister", body: device.body)
    }

    func deviceStatus(_ device: DeviceCredential) -> HTTPReply {
        service.call("POST", "/terminal/v1/devices/status", body: device.body)
    }

    func session(_ token: String) -> HTTPReply { service.call("GET", "/terminal/v1/sessions/current", bearer: token) }
    func logout(_ token: String) -> HTTPReply { service.call("DELETE", "/terminal/v1/sessions/current", bearer: token) }
    func terminalInfo(_ token: String) -> HTTPReply { service.call("GET", "/terminal/v1/terminal", bearer: token) }
    func infoInit(_ token: String) -> HTTPReply { service.call("GET", "/terminal/v1/info-init", bearer: token) }
    func relink(_ token: String) -> HTTPReply { service.call("POST", "/terminal/v1/relink", bearer: token) }

    func updateSecretCode(_ token: String, old: String, new: String) -> HTTPReply {
        service.call("PUT", "/terminal/v1/secret-code", bearer: token, body: ["oldSecretCode": old, "newSecretCode": new])
    }

    // MARK: Merchant API

    func merchantTerminals(key: String) -> HTTPReply { service.call("GET", "/merchant/v1/terminals", bearer: key) }

    func merchantToken(key: String, terminal: String, email: String? = nil) -> HTTPReply {
        var body: [String: Any] = ["terminalId": terminal]
        if let email { body["email"] = email }
        return service.call("POST", "/merchant/v1/registration-tokens", bearer: key, body: body)
    }

    // MARK: Back-office API

    func merchants() -> HTTPReply { service.call("GET", "/backoffice/v1/merchants", bearer: backOfficeKey) }

    func terminalState(_ terminal: String) -> HTTPReply {
        service.call("GET", "/backoffice/v1/terminals/\(terminal)", bearer: backOfficeKey)
    }

    func confirm(challenge: String, terminal: String) -> HTTPReply {
        service.call(
            "POST", "/backoffice/v1/challenges/confirm", bearer: backOfficeKey,
            body: ["challengeCode": challenge, "terminalId": terminal])
    }

    func confirm(challenge: String, merchant: String) -> HTTPReply {
        service.call(
            "POST", "/backoffice/v1/challenges/confirm", bearer: backOfficeKey,
            body: ["challengeCode": challenge, "merchantId": merchant])
    }

    func backOfficeToken(terminal: String, email: String? = nil) -> HTTPReply {
        var body: [String: Any] = ["terminalId": terminal]
        if let email { body["email"] = email }
        return service.call("POST", "/backoffice/v1/registration-tokens", bearer: backOfficeKey, body: body)
    }

    func unlock(_ terminal: String) -> HTTPReply {
        service.call("POST", "/backoffice/v1/terminals/\(terminal)/unlock", bearer: backOfficeKey)
    }

    func backOfficeUnregister(_ terminal: String) -> HTTPReply {
        service.call("POST", "/backoffice/v1/terminals/\(terminal)/unregister", bearer: backOfficeKey)
    }

    func mailbox() -> HTTPReply { service.call("GET", "/backoffice/v1/mailbox", bearer: backOfficeKey) }

    // MARK: Sandbox control

    func environment() -> HTTPReply { service.call("GET", "/v1/environment") }
    func clock() -> HTTPReply { service.call("GET", "/_sandbox/clock") }

    @discardableResult
    func advanceClock(_ seconds: Int, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) -> HTTPReply {
        service.advanceClock(seconds, step, sourceLocation: sourceLocation)
    }

    func reset() -> HTTPReply { service.call("POST", "/_sandbox/reset") }

    // MARK: Back-office view

    /// Terminal id → device id of every terminal the back office shows as registered.
    func registrations(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: String] {
        let list = merchants()
        expectReply(list, 200, nil, "\(step): back office lists merchants", sourceLocation: sourceLocation)
        var result: [String: String] = [:]
        for merchant in list.array("merchants") as? [[String: Any]] ?? [] {
            for terminal in merchant["terminals"] as? [[String: Any]] ?? [] where terminal["registered"] as? Bool == true {
                let id = terminal["terminalId"] as? String ?? "?"
                let state = terminalState(id)
                expectReply(state, 200, nil, "\(step): back office shows terminal \(id)", sourceLocation: sourceLocation)
                result[id] = state.string("deviceId") ?? "(no deviceId)"
            }
        }
        return result
    }

    /// Expects the back office to show exactly `expected` (terminal → device) as registered:
    /// no second device anywhere, and no terminal taken or freed unexpectedly.
    func expectRegistrations(
        _ expected: [String: String], _ step: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let actual = registrations(step, sourceLocation: sourceLocation)
        let shown = actual.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        let wanted = expected.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        #expect(
            actual == expected, "[\(region)] \(step): back office shows registered \(shown), expected \(wanted)",
            sourceLocation: sourceLocation)
    }

    // MARK: Whole registrations

    /// Portal activation: begin → back office confirms for `terminal` → verify the code → complete.
    func portalRegister(
        _ device: String, terminal: String, pin: String, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> DeviceCredential {
        let begun = expectReply(beginRegistration(device), 201, nil, "\(step): begin", sourceLocation: sourceLocation)
        let challenge = try #require(
            begun.string("challengeCode"), "\(step): no challenge code: \(begun)", sourceLocation: sourceLocation)
        let confirmed = expectReply(
            confirm(challenge: challenge, terminal: terminal), 200, nil, "\(step): confirm", sourceLocation: sourceLocation)
        let code = try #require(
            confirmed.string("backofficeCode"), "\(step): no code: \(confirmed)", sourceLocation: sourceLocation)
        let verified = expectReply(verifyCode(code), 200, nil, "\(step): verify code", sourceLocation: sourceLocation)
        #expect(verified.bool("valid") == true, "\(step): \(verified)", sourceLocation: sourceLocation)
        let done = expectReply(
            complete(device, code: code, pin: pin), 200, nil, "\(step): complete", sourceLocation: sourceLocation)
        #expect(done.string("terminalId") == terminal, "\(step): \(done)", sourceLocation: sourceLocation)
        let secret = try #require(
            done.string("deviceSecret"), "\(step): no device secret: \(done)", sourceLocation: sourceLocation)
        return DeviceCredential(deviceId: device, secret: secret, terminalId: terminal)
    }

    /// Token activation with a token the merchant (owning `terminal`) issues: verify → begin → end.
    func tokenRegister(
        _ device: String, terminal: String, pin: String?, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> DeviceCredential {
        let key = try #require(apiKey(owning: terminal), "no merchant owns \(terminal)", sourceLocation: sourceLocation)
        let issued = expectReply(
            merchantToken(key: key, terminal: terminal), 201, nil, "\(step): issue token", sourceLocation: sourceLocation)
        let token = try #require(issued.string("registrationToken"), "\(step): \(issued)", sourceLocation: sourceLocation)
        return try tokenRegister(device, token: token, terminal: terminal, pin: pin, step, sourceLocation: sourceLocation)
    }

    /// verify → begin → end with a token already issued.
    func tokenRegister(
        _ device: String, token: String, terminal: String, pin: String?, _ step: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> DeviceCredential {
        let verified = expectReply(verifyToken(token), 200, nil, "\(step): verify token", sourceLocation: sourceLocation)
        #expect(verified.bool("valid") == true, "\(step): \(verified)", sourceLocation: sourceLocation)
        let begun = expectReply(beginToken(token, device), 200, nil, "\(step): begin", sourceLocation: sourceLocation)
        #expect(begun.string("terminalId") == terminal, "\(step): \(begun)", sourceLocation: sourceLocation)
        #expect(begun.string("state") == "begun", "\(step): \(begun)", sourceLocation: sourceLocation)
        let ended = expectReply(endToken(token, device, pin: pin), 200, nil, "\(step): end", sourceLocation: sourceLocation)
        #expect(ended.string("terminalId") == terminal, "\(step): \(ended)", sourceLocation: sourceLocation)
        let secret = try #require(
            ended.string("deviceSecret"), "\(step): no device secret: \(ended)", sourceLocation: sourceLocation)
        return DeviceCredential(deviceId: device, secret: secret, terminalId: terminal)
    }

    /// Logs in and returns the session token.
    func loginToken(
        _ device: DeviceCredential, pin: String?, _ step: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let reply = expectReply(login(device, pin: pin), 201, nil, step, sourceLocation: sourceLocation)
        #expect(reply.string("terminalId") == device.terminalId, "\(step): \(reply)", sourceLocation: sourceLocation)
        return try #require(reply.string("sessionToken"), "\(step): no session token: \(reply)", sourceLocation: sourceLocation)
    }
}
