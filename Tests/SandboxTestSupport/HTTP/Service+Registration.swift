import Foundation
import Testing

extension Service {
    /// Portal activation of `device` on `terminal`, as a phone and the merchant portal do it:
    /// begin → the back office confirms the challenge for `terminal` → complete with `pin`.
    ///
    /// `step` names the registration in messages (`[EU] register a device on EU-T0101`).
    public func portalRegistration(
        _ device: String, terminal: String, backOfficeKey: String, pin: String, _ step: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> DeviceCredential {
        let begun = expectReply(
            await call("POST", "/terminal/v1/registrations", body: ["deviceId": device, "deviceModel": "iPhone15,2", "osVersion": "18.1"]),
            201, nil, "\(step): begin", sourceLocation: sourceLocation)
        let challenge = try #require(begun.string("challengeCode"), "\(step): \(begun)", sourceLocation: sourceLocation)
        let confirmed = expectReply(
            await call(
                "POST", "/backoffice/v1/challenges/confirm", bearer: backOfficeKey,
                body: ["challengeCode": challenge, "terminalId": terminal]),
            200, nil, "\(step): confirm", sourceLocation: sourceLocation)
        let code = try #require(confirmed.string("backofficeCode"), "\(step): \(confirmed)", sourceLocation: sourceLocation)
        let done = expectReply(
            await call("POST", "/terminal/v1/registrations/complete", body: ["deviceId": device, "backofficeCode": code, "pin": pin]),
            200, nil, "\(step): complete", sourceLocation: sourceLocation)
        let secret = try #require(done.string("deviceSecret"), "\(step): \(done)", sourceLocation: sourceLocation)
        return DeviceCredential(deviceId: device, secret: secret, terminalId: terminal)
    }
}
