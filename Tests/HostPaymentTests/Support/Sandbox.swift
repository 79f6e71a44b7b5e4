import Foundation
import HostTestSupport
import SandboxTestSupport
import Testing

// One environment host of the sandbox in this process (TestSupport's `InProcessSandbox`): its
// merchants.json facts the payment tests pick terminals by, and its registration and login calls.

extension InProcessSandbox {
    /// The host of `region` with its fixtures.
    func host(_ region: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Host {
        Host(
            service: Service(name: region, baseURL: try url(of: region, sourceLocation: sourceLocation)),
            fixture: try fixtures.region(region, sourceLocation: sourceLocation),
            facts: try RegionFacts.load(region, sourceLocation: sourceLocation))
    }
}

/// One environment host: registration, login, clock and the back-office and merchant calls.
struct Host {
    static let pin = "24680"

    var service: Service
    var fixture: RegionFixture
    var facts: RegionFacts

    var region: String { service.name }
    var currency: String { facts.currency }

    /// The first terminal of the region matching `rule` (merchants.json order).
    func terminal(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, where rule: (TerminalFixture) -> Bool
    ) throws -> TerminalFixture {
        let found = fixture.terminals.first(where: rule)
        return try #require(found, "[\(region)] merchants.json has no terminal \(what)", sourceLocation: sourceLocation)
    }

    func apiKey(owning terminal: String) -> String? { fixture.merchant(owning: terminal)?.apiKey }

    /// The merchant of `terminal` in merchants.json.
    func merchant(owning terminal: String) -> MerchantFixture? { fixture.merchant(owning: terminal) }

    @discardableResult
    func advanceClock(_ seconds: Int, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) async -> HTTPReply {
        await service.advanceClock(seconds, step, sourceLocation: sourceLocation)
    }

    func mailbox() async -> HTTPReply {
        await service.call("GET", "/backoffice/v1/mailbox", bearer: fixture.backOfficeKey)
    }

    /// Registers a fresh device on `terminal` with a registration token the merchant issues
    /// (or portal activation when the terminal allows only that).
    func register(_ terminal: TerminalFixture, sourceLocation: SourceLocation = #_sourceLocation) async throws -> DeviceCredential {
        let device = "pay-\(terminal.id)-\(UUID().uuidString.lowercased())"
        let step = "[\(region)] register a device on \(terminal.id)"
        if terminal.allows("registrationCode") {
            let key = try #require(apiKey(owning: terminal.id), "no merchant owns \(terminal.id)", sourceLocation: sourceLocation)
            let issued = expectReply(
                await service.call("POST", "/merchant/v1/registration-tokens", bearer: key, body: ["terminalId": terminal.id]),
                201, nil, "\(step): issue token", sourceLocation: sourceLocation)
            let token = try #require(issued.string("registrationToken"), "\(step): \(issued)", sourceLocation: sourceLocation)
            expectReply(
                await service.call("POST", "/terminal/v1/token-registrations/verify", body: ["registrationToken": token]),
                200, nil, "\(step): verify", sourceLocation: sourceLocation)
            expectReply(
                await service.call(
                    "POST", "/terminal/v1/token-registrations/begin",
                    body: ["registrationToken": token, "deviceId": device, "deviceModel": "iPhone15,2"]),
                200, nil, "\(step): begin", sourceLocation: sourceLocation)
            let ended = expectReply(
                await service.call(
                    "POST", "/terminal/v1/token-registrations/end",
                    body: ["registrationToken": token, "deviceId": device, "pin": Self.pin]),
                200, nil, "\(step): end", sourceLocation: sourceLocation)
            let secret = try #require(ended.string("deviceSecret"), "\(step): \(ended)", sourceLocation: sourceLocation)
            return DeviceCredential(deviceId: device, secret: secret, terminalId: terminal.id)
        }
        return try await service.portalRegistration(
            device, terminal: terminal.id, backOfficeKey: fixture.backOfficeKey, pin: Self.pin, step, sourceLocation: sourceLocation)
    }

    /// Logs in (without PIN on auto-login terminals) and returns the session token.
    func login(
        _ device: DeviceCredential, autoLogin: Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        var body = device.body
        if !autoLogin { body["pin"] = Self.pin }
        let reply = expectReply(
            await service.call("POST", "/terminal/v1/sessions", body: body), 201, nil,
            "[\(region)] log in on \(device.terminalId)", sourceLocation: sourceLocation)
        return try #require(reply.string("sessionToken"), "login: \(reply)", sourceLocation: sourceLocation)
    }
}
