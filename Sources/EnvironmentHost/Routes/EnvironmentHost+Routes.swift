import Foundation
import SandboxCore
import SandboxCrypto
import SandboxHTTP
import SandboxWire

/// The four API surfaces of a host (docs/terminal-lifecycle.md): terminal, merchant, back office,
/// sandbox control. Handlers decode and validate, call `Lifecycle`, and encode its answer.
extension EnvironmentHost {
    struct Bodies {
        // The terminal API's bodies are the wire's, one type each with the SDK's.
        typealias Begin = TerminalBodies.Begin
        typealias Code = TerminalBodies.Code
        typealias Complete = TerminalBodies.Complete
        typealias Token = TerminalBodies.Token
        typealias TokenBegin = TerminalBodies.TokenBegin
        typealias TokenEnd = TerminalBodies.TokenEnd
        typealias Login = TerminalBodies.Login
        typealias SecretCode = TerminalBodies.SecretCode
        typealias Device = TerminalBodies.Device
        typealias Support = TerminalBodies.Support
        struct IssueToken: Decodable { let terminalId: String; let email: String? }
        struct Confirm: Decodable { let challengeCode: String; let terminalId: String?; let merchantId: String? }
        struct Clock: Decodable { let advanceSeconds: Double?; let set: String? }
    }

    /// The check of every back-office route: the request carries the region's back-office key,
    /// compared in constant time.
    static func backOfficeKey(_ key: String) -> Middleware<Void> {
        let expected = Array(key.utf8)
        return Middleware { request in
            guard let given = bearer(request), ConstantTime.equals(Array(given.utf8), expected) else { throw LifecycleError.unauthorized }
        }
    }

    /// The check of the merchant API: the merchant whose API key the request carries.
    static func merchantKey(_ lifecycle: Lifecycle) -> Middleware<String> {
        Middleware { request in
            guard let key = bearer(request), let merchant = try lifecycle.merchant(apiKey: key) else { throw LifecycleError.unauthorized }
            return merchant
        }
    }

    /// The check of the terminal routes a device calls once logged in: its session, from memory
    /// when it is there (after a device's first request), else from the database.
    static func sessionBearer(_ lifecycle: Lifecycle) -> Middleware<Lifecycle.CurrentSession> {
        Middleware(nonBlocking: { request in
            try lifecycle.cachedSession(bearer: bearer(request))
        }, orElse: { request in
            try lifecycle.session(bearer: bearer(request))
        })
    }

    /// The token of `Authorization: Bearer <token>`.
    static func bearer(_ request: Request) -> String? {
        guard let header = request.header("authorization") else { return nil }
        // "Bearer" (any case), one space, the token with spaces and tabs around it trimmed; read
        // as bytes, as this runs on every terminal request.
        let bytes = Array(header.utf8)
        let scheme = Array("bearer".utf8)
        guard bytes.count > scheme.count, bytes[scheme.count] == UInt8(ascii: " "),
            zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 })
        else { return nil }
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let token = bytes[(scheme.count + 1)...]
        guard let first = token.firstIndex(where: { !blank($0) }), let last = token.lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(decoding: token[first...last], as: UTF8.self)
    }

    static func addLifecycleRoutes(
        to router: inout Router, lifecycle: Lifecycle, fixtures: RegionFixtures, clock: SandboxClock
    ) {
        addTerminalRoutes(to: &router, lifecycle)
        addMerchantRoutes(to: &router, lifecycle)
        addBackOfficeRoutes(to: &router, lifecycle, key: fixtures.backOfficeKey)
        addSandboxRoutes(to: &router, lifecycle, fixtures: fixtures, clock: clock)
    }

    // MARK: - Terminal API

    private static func addTerminalRoutes(to router: inout Router, _ lifecycle: Lifecycle) {
        router.post("/terminal/v1/registrations") { request in
            let body = try request.decode(Bodies.Begin.self)
            return .json(
                try lifecycle.beginRegistration(
                    device: try Validate.deviceID(body.deviceId), model: try Validate.deviceModel(body.deviceModel)),
                status: 201)
        }
        router.post("/terminal/v1/registrations/verify-code") { request in
            .json(try lifecycle.verifyBackOfficeCode(try request.decode(Bodies.Code.self).code))
        }
        router.post("/terminal/v1/registrations/complete") { request in
            let body = try request.decode(Bodies.Complete.self)
            return .json(
                try lifecycle.completeRegistration(
                    device: try Validate.deviceID(body.deviceId), backOfficeCode: body.backofficeCode,
                    pin: try body.pin.map { try Validate.pin($0) }))
        }
        router.post("/terminal/v1/token-registrations/verify") { request in
            let body = try request.decode(Bodies.Token.self)
            return .json(try lifecycle.verifyToken(body.registrationToken, device: try body.deviceId.map { try Validate.deviceID($0) }))
        }
        router.post("/terminal/v1/token-registrations/begin") { request in
            let body = try request.decode(Bodies.TokenBegin.self)
            return .json(
                try lifecycle.beginTokenRegistration(
                    body.registrationToken, device: try Validate.deviceID(body.deviceId),
                    model: try Validate.deviceModel(body.deviceModel)))
        }
        router.post("/terminal/v1/token-registrations/end") { request in
            let body = try request.decode(Bodies.TokenEnd.self)
            return .json(
                try lifecycle.endTokenRegistration(
                    body.registrationToken, device: try Validate.deviceID(body.deviceId), pin: try body.pin.map { try Validate.pin($0) }))
        }
        router.post("/terminal/v1/sessions") { request in
            let body = try request.decode(Bodies.Login.self)
            return .json(
                try lifecycle.login(
                    device: try Validate.deviceID(body.deviceId), secret: body.deviceSecret,
                    pin: try body.pin.map { try Validate.pin($0) }),
                status: 201)
        }
        router.group("/terminal/v1", middleware: sessionBearer(lifecycle)) { terminal in
            terminal.get("/sessions/current", .nonBlocking) { _, session in .json(lifecycle.sessionState(session)) }
            terminal.delete("/sessions/current") { _, session in
                try lifecycle.logout(session)
                return Response(status: 204)
            }
            terminal.get("/info-init", .nonBlocking) { _, session in .json(InfoInit(terminal: session.terminal.profile)) }
            terminal.get("/terminal", .nonBlocking) { _, session in .json(try lifecycle.terminalInfo(session)) }
            terminal.put("/secret-code") { request, session in
                let body = try request.decode(Bodies.SecretCode.self)
                try lifecycle.updateSecretCode(
                    session, old: try Validate.pin(body.oldSecretCode, field: "oldSecretCode"),
                    new: try Validate.pin(body.newSecretCode, field: "newSecretCode"))
                return Response(status: 204)
            }
            terminal.post("/relink") { _, session in .json(try lifecycle.relink(session)) }
        }
        router.post("/terminal/v1/unregister") { request in
            let body = try request.decode(Bodies.Device.self)
            try lifecycle.unregisterDevice(try Validate.deviceID(body.deviceId), secret: body.deviceSecret)
            return Response(status: 204)
        }
        router.post("/terminal/v1/devices/status") { request in
            let body = try request.decode(Bodies.Device.self)
            return .json(try lifecycle.deviceStatus(try Validate.deviceID(body.deviceId), secret: body.deviceSecret))
        }
        router.post("/terminal/v1/support-number") { request in
            .json(try lifecycle.supportNumber(device: try Validate.deviceID(try request.decode(Bodies.Support.self).deviceId)))
        }
    }

    // MARK: - Merchant API

    private static func addMerchantRoutes(to router: inout Router, _ lifecycle: Lifecycle) {
        router.group("/merchant/v1", middleware: merchantKey(lifecycle)) { merchantAPI in
            merchantAPI.get("/terminals") { _, merchant in
                .json(["terminals": try lifecycle.terminals(merchant: merchant)])
            }
            merchantAPI.post("/registration-tokens") { request, merchant in
                let body = try request.decode(Bodies.IssueToken.self)
                return .json(
                    try lifecycle.issueToken(
                        terminal: try Validate.identifier(body.terminalId, field: "terminalId"), merchant: merchant,
                        email: try body.email.map { try Validate.email($0) }),
                    status: 201)
            }
        }
    }

    // MARK: - Back-office API

    private static func addBackOfficeRoutes(to router: inout Router, _ lifecycle: Lifecycle, key: String) {
        router.group("/backoffice/v1", middleware: backOfficeKey(key)) { backOffice in
            backOffice.get("/merchants") { _, _ in
                .json(["merchants": try lifecycle.merchants()])
            }
            backOffice.get("/terminals/{terminalId}") { request, _ in
                .json(try lifecycle.terminalState(try Validate.identifier(request.parameter("terminalId"), field: "terminalId")))
            }
            backOffice.post("/challenges/confirm") { request, _ in
                let body = try request.decode(Bodies.Confirm.self)
                return .json(
                    try lifecycle.confirmChallenge(
                        body.challengeCode, terminal: try body.terminalId.map { try Validate.identifier($0, field: "terminalId") },
                        merchant: try body.merchantId.map { try Validate.identifier($0, field: "merchantId") }))
            }
            backOffice.post("/registration-tokens") { request, _ in
                let body = try request.decode(Bodies.IssueToken.self)
                return .json(
                    try lifecycle.issueToken(
                        terminal: try Validate.identifier(body.terminalId, field: "terminalId"), merchant: nil,
                        email: try body.email.map { try Validate.email($0) }),
                    status: 201)
            }
            backOffice.post("/terminals/{terminalId}/unlock") { request, _ in
                try lifecycle.unlock(terminal: try Validate.identifier(request.parameter("terminalId"), field: "terminalId"))
                return Response(status: 204)
            }
            backOffice.post("/terminals/{terminalId}/unregister") { request, _ in
                try lifecycle.unregister(terminal: try Validate.identifier(request.parameter("terminalId"), field: "terminalId"))
                return Response(status: 204)
            }
            backOffice.get("/mailbox") { _, _ in
                .json(["messages": try lifecycle.mailbox()])
            }
        }
    }

    // MARK: - Sandbox control

    struct ClockState: Codable, Sendable {
        let now: String
        let skewSeconds: Double
    }

    private static func addSandboxRoutes(
        to router: inout Router, _ lifecycle: Lifecycle, fixtures: RegionFixtures, clock: SandboxClock
    ) {
        @Sendable func state() -> Response {
            .json(ClockState(now: Wire.time(lifecycle.now()), skewSeconds: clock.skew))
        }
        router.get("/_sandbox/clock") { _ in state() }
        router.post("/_sandbox/clock") { request in
            let body = try request.decode(Bodies.Clock.self)
            switch (body.advanceSeconds, body.set) {
            case (let seconds?, nil):
                // Ten years is far beyond any rule here (certificates expire after three months).
                guard seconds.isFinite, (0...315_360_000).contains(seconds) else {
                    throw HTTPError.invalidRequest("advanceSeconds must be from 0 to 315360000.", field: "advanceSeconds")
                }
                clock.advance(by: seconds)
            case (nil, let text?):
                guard let date = Wire.parse(text) else {
                    throw HTTPError.invalidRequest("set must be an ISO 8601 time such as 2026-12-01T10:00:00Z.", field: "set")
                }
                guard clock.set(to: date) else {
                    throw HTTPError.invalidRequest("The sandbox clock only moves forward.", field: "set")
                }
            default:
                throw HTTPError.invalidRequest("Give exactly one of advanceSeconds and set.", field: "advanceSeconds")
            }
            return state()
        }
        router.post("/_sandbox/reset") { _ in
            try lifecycle.reset(fixtures)
            return Response(status: 204)
        }
    }
}
