import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

/// A device asks for what a registration token needs before it spends it, and can finish a
/// registration it began after its `end` was refused.
@Suite("Registration tokens: what verify tells, and finishing a begun registration")
struct TokenResumeTests {
    static let pin = "4321"

    @Test("verify names the terminal and whether end needs a PIN; a refused token says why in words")
    func verifyTells() throws {
        try withSandbox(regions: nil) { sandbox in
            for region in regionIDs {
                let host = try sandbox.host(region)
                let terminals = host.fixture.terminals.filter { $0.allows("registrationCode") }
                for terminal in [terminals.first { $0.autoLogin }, terminals.first { !$0.autoLogin }].compactMap({ $0 }) {
                    let issued = expectReply(host.backOfficeToken(terminal: terminal.id), 201, nil, "[\(region)] issue for \(terminal.id)")
                    let token = try #require(issued.string("registrationToken"))
                    let verified = expectReply(host.verifyToken(token, device: newDevice("tell")), 200, nil, "[\(region)] verify")
                    #expect(verified.bool("valid") == true, "\(verified)")
                    #expect(verified.string("terminalId") == terminal.id, "\(verified)")
                    #expect(verified.bool("pinRequired") == !terminal.autoLogin, "\(terminal.id) autoLogin \(terminal.autoLogin): \(verified)")
                }
                let unknown = "rt_\(region.lowercased())_" + String(repeating: "0", count: 32)
                let refused = expectReply(host.verifyToken(unknown), 200, nil, "[\(region)] verify an unknown token")
                #expect(refused.bool("valid") == false && refused.string("reason") == "registration_token_invalid", "\(refused)")
                #expect(refused.string("message") == "No such registration token on this host.", "\(refused)")
                #expect(refused["pinRequired"] == nil && refused["terminalId"] == nil, "\(refused)")
            }
        }
    }

    @Test("a revoked token, and one a newer token for its terminal replaced, registers nobody; a used one cannot be revoked")
    func revokedAndReplacedTokens() throws {
        try withSandbox { sandbox in
            let host = try sandbox.host(regionIDs.first ?? "EU")
            let r = host.region
            let terminal = try #require(host.fixture.terminals.first { $0.allows("registrationCode") }, "[\(r)] no token terminal")
            let first = try #require(expectReply(host.backOfficeToken(terminal: terminal.id), 201, nil, "[\(r)] issue").string("registrationToken"))
            let second = try #require(expectReply(host.backOfficeToken(terminal: terminal.id), 201, nil, "[\(r)] issue again").string("registrationToken"))
            let replaced = expectReply(host.verifyToken(first, device: newDevice("old")), 200, nil, "[\(r)] verify the replaced token")
            #expect(replaced.bool("valid") == false && replaced.string("reason") == "registration_token_invalid", "\(replaced)")
            #expect(expectReply(host.verifyToken(second, device: newDevice("new")), 200, nil, "[\(r)] verify").bool("valid") == true)

            let revoke = { (token: String) in
                host.service.call("DELETE", "/backoffice/v1/registration-tokens/\(token)", bearer: host.backOfficeKey)
            }
            expectReply(revoke(second), 204, nil, "[\(r)] revoke")
            let revoked = expectReply(host.verifyToken(second, device: newDevice("late")), 200, nil, "[\(r)] verify a revoked token")
            #expect(revoked.string("reason") == "registration_token_invalid", "\(revoked)")
            expectReply(revoke(second), 404, "registration_token_invalid", "[\(r)] revoke twice")

            // A used token stays used.
            let third = try #require(expectReply(host.backOfficeToken(terminal: terminal.id), 201, nil, "[\(r)] issue a third").string("registrationToken"))
            let device = newDevice("user")
            expectReply(host.verifyToken(third, device: device), 200, nil, "[\(r)] verify")
            expectReply(host.beginToken(third, device), 200, nil, "[\(r)] begin")
            expectReply(host.endToken(third, device, pin: terminal.autoLogin ? nil : Self.pin), 200, nil, "[\(r)] end")
            expectReply(revoke(third), 409, "registration_token_used", "[\(r)] revoke a used token")
        }
    }

    @Test("end refused for want of a PIN leaves the registration begun: its device verifies, begins and ends it again; no other device can")
    func beganDeviceFinishes() throws {
        try withSandbox { sandbox in
            let host = try sandbox.host(regionIDs.first ?? "EU")
            let r = host.region
            let terminal = try #require(
                host.fixture.terminals.first { $0.allows("registrationCode") && !$0.autoLogin }, "[\(r)] no PIN terminal for tokens")
            let issued = expectReply(host.backOfficeToken(terminal: terminal.id), 201, nil, "[\(r)] issue")
            let token = try #require(issued.string("registrationToken"))
            let device = newDevice("resume")
            let other = newDevice("other")

            expectReply(host.verifyToken(token, device: device), 200, nil, "[\(r)] verify")
            expectReply(host.beginToken(token, device), 200, nil, "[\(r)] begin")
            expectReply(host.endToken(token, device, pin: nil), 400, "pin_required", "[\(r)] end without a PIN")
            host.expectRegistrations([:], "[\(r)] after pin_required")

            // Another device, or a verify that does not say which device it is, cannot take it over.
            let stranger = expectReply(host.verifyToken(token, device: other), 200, nil, "[\(r)] verify by another device")
            #expect(stranger.bool("valid") == false && stranger.string("reason") == "registration_wrong_device", "\(stranger)")
            #expect(stranger.string("message") == "Another device began this registration.", "\(stranger)")
            let anonymous = expectReply(host.verifyToken(token), 200, nil, "[\(r)] verify without a device id")
            #expect(anonymous.string("reason") == "registration_out_of_order", "\(anonymous)")

            // The device that began finishes: verify, begin and end again.
            let again = expectReply(host.verifyToken(token, device: device), 200, nil, "[\(r)] verify again by the device that began")
            #expect(again.bool("valid") == true && again.bool("pinRequired") == true, "\(again)")
            expectReply(host.beginToken(token, device), 200, nil, "[\(r)] begin again")
            let ended = expectReply(host.endToken(token, device, pin: Self.pin), 200, nil, "[\(r)] end with the PIN")
            #expect(ended.string("terminalId") == terminal.id, "\(ended)")
            host.expectRegistrations([terminal.id: device], "[\(r)] after the device finished")
        }
    }

    @Test("a begun registration can be finished until its token expires (24 h on the host clock)")
    func untilExpiry() throws {
        try withSandbox { sandbox in
            let host = try sandbox.host(regionIDs.first ?? "EU")
            let r = host.region
            let terminal = try #require(host.fixture.terminals.first { $0.allows("registrationCode") && !$0.autoLogin })
            let token = try #require(
                expectReply(host.backOfficeToken(terminal: terminal.id), 201, nil, "[\(r)] issue").string("registrationToken"))
            let device = newDevice("late")
            expectReply(host.verifyToken(token, device: device), 200, nil, "[\(r)] verify")
            expectReply(host.beginToken(token, device), 200, nil, "[\(r)] begin")
            expectReply(host.endToken(token, device, pin: nil), 400, "pin_required", "[\(r)] end without a PIN")
            host.advanceClock(23 * 3600, "[\(r)] 23 h later")
            #expect(host.verifyToken(token, device: device).bool("valid") == true, "[\(r)] still valid after 23 h")
            host.advanceClock(3600, "[\(r)] 24 h after issue")
            expectNotValid(host.verifyToken(token, device: device), 410, "registration_token_expired", "[\(r)] verify after 24 h")
            expectReply(host.endToken(token, device, pin: Self.pin), 410, "registration_token_expired", "[\(r)] end after 24 h")
            host.expectRegistrations([:], "[\(r)] after expiry")
        }
    }
}
