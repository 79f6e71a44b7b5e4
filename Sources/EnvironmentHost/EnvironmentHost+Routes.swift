import Foundation
import SandboxCore
import SandboxCrypto
import SandboxHTTP

/// The four API surfaces of a host (docs/terminal-lifecycle.md): terminal, merchant, back office,
/// sandbox control. Handlers decode and validate, call `Lifecycle`, and encode its answer.
extension EnvironmentHost {
    struct Bodies {
        struct Begin: Decodable { let deviceId: String; let deviceModel: String; let osVersion: String? }
        struct Code: Decodable { let code: String }
        struct Complete: Decodable { let deviceId: String; let backofficeCode: String; let pin: String? }
        /// `deviceId` (not in the seed's call, sent by our SDK) lets the device that began a
        /// registration verify it again.
        struct Token: Decodable { let registrationToken: String; let deviceId: String? }
        struct TokenBegin: Decodable { let registrationToken: String; let deviceId: String; let deviceModel: String }
        struct TokenEnd: Decodable { let registrationToken: String; let deviceId: String; let pin: String? }
        struct Login: Decodable { let deviceId: String; let deviceSecret: String; let pin: String? }
        struct SecretCode: Decodable { let oldSecretCode: String; let newSecretCode: String }
        struct Device: Decodable { let deviceId: String; let deviceSecret: String }
        struct Support: Decodable { let deviceId: String }
        struct IssueToken: Decodable { let terminalId: String; let email: String? }
        struct Confirm: Decodable { let challengeCode: String; let terminalId: String?; let merchantId: String? }
        struct Clock: Decodable { let advanceSeconds: Double?; let set: String? }
    }

    /// A check that a request carries the region's back-office key, compared in constant time.
    static func backOfficeAuthorization(key: String) -> @Sendable (Request) throws -> Void {
        let expected = Array(key.utf8)
        return { request in
            guard let given = bearer(request), ConstantTime.equals(Array(given.utf8), expected) else { throw HTTPError.unauthorized }
        }
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
        router.get("/terminal/v1/sessions/current", session: lifecycle) { session in .json(lifecycle.sessionState(session)) }
        router.delete("/terminal/v1/sessions/current") { request in
            try lifecycle.logout(try lifecycle.session(bearer: bearer(request)))
            return Response(status: 204)
        }
        router.get("/terminal/v1/info-init", session: lifecycle) { session in .json(InfoInit(terminal: session.terminal.profile)) }
        router.get("/terminal/v1/terminal", session: lifecycle) { session in .json(try lifecycle.terminalInfo(session)) }
        router.put("/terminal/v1/secret-code") { request in
            let session = try lifecycle.session(bearer: bearer(request))
            let body = try request.decode(Bodies.SecretCode.self)
            try lifecycle.updateSecretCode(
                session, old: try Validate.pin(body.oldSecretCode, field: "oldSecretCode"),
                new: try Validate.pin(body.newSecretCode, field: "newSecretCode"))
            return Response(status: 204)
        }
        router.post("/terminal/v1/relink") { request in
            .json(try lifecycle.relink(try lifecycle.session(bearer: bearer(request))))
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
        @Sendable func merchant(_ request: Request) throws -> String {
            guard let key = bearer(request), let merchant = try lifecycle.merchant(apiKey: key) else { throw HTTPError.unauthorized }
            return merchant
        }
        router.get("/merchant/v1/terminals") { request in
            .json(["terminals": try lifecycle.terminals(merchant: try merchant(request))])
        }
        router.post("/merchant/v1/registration-tokens") { request in
            let merchant = try merchant(request)
            let body = try request.decode(Bodies.IssueToken.self)
            return .json(
                try lifecycle.issueToken(
                    terminal: try Validate.identifier(body.terminalId, field: "terminalId"), merchant: merchant,
                    email: try body.email.map { try Validate.email($0) }),
                status: 201)
        }
    }

    // MARK: - Back-office API

    private static func addBackOfficeRoutes(to router: inout Router, _ lifecycle: Lifecycle, key: String) {
        let authorize = backOfficeAuthorization(key: key)
        router.get("/backoffice/v1/merchants") { request in
            try authorize(request)
            return .json(["merchants": try lifecycle.merchants()])
        }
        router.get("/backoffice/v1/terminals/{terminalId}") { request in
            try authorize(request)
            return .json(try lifecycle.terminalState(try Validate.identifier(request.parameter("terminalId"), field: "terminalId")))
        }
        router.post("/backoffice/v1/challenges/confirm") { request in
            try authorize(request)
            let body = try request.decode(Bodies.Confirm.self)
            return .json(
                try lifecycle.confirmChallenge(
                    body.challengeCode, terminal: try body.terminalId.map { try Validate.identifier($0, field: "terminalId") },
                    merchant: try body.merchantId.map { try Validate.identifier($0, field: "merchantId") }))
        }
        router.post("/backoffice/v1/registration-tokens") { request in
            try authorize(request)
            let body = try request.decode(Bodies.IssueToken.self)
            return .json(
                try lifecycle.issueToken(
                    terminal: try Validate.identifier(body.terminalId, field: "terminalId"), merchant: nil,
                    email: try body.email.map { try Validate.email($0) }),
                status: 201)
        }
        router.post("/backoffice/v1/terminals/{terminalId}/unlock") { request in
            try authorize(request)
            try lifecycle.unlock(terminal: try Validate.identifier(request.parameter("terminalId"), field: "terminalId"))
            return Response(status: 204)
        }
        router.post("/backoffice/v1/terminals/{terminalId}/unregister") { request in
            try authorize(request)
            try lifecycle.unregister(terminal: try Validate.identifier(request.parameter("terminalId"), field: "terminalId"))
            return Response(status: 204)
        }
        router.get("/backoffice/v1/mailbox") { request in
            try authorize(request)
            return .json(["messages": try lifecycle.mailbox()])
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

extension Router {
    /// A `GET` whose answer needs only the caller's session and memory (`body` must not block):
    /// answered on the polling thread when the session is in memory, which it is after a device's
    /// first request; on a handler thread when finding it reads the database.
    mutating func get(
        _ pattern: String, session lifecycle: Lifecycle, _ body: @escaping @Sendable (Lifecycle.CurrentSession) throws -> Response
    ) {
        get(pattern, .nonBlocking, { request in
            try lifecycle.cachedSession(bearer: EnvironmentHost.bearer(request)).map(body)
        }, orElse: { request in
            try body(try lifecycle.session(bearer: EnvironmentHost.bearer(request)))
        })
    }
}
