import Foundation
import SandboxCore
import SandboxHTTP
import SandboxWire

/// Sandbox control (`/_sandbox/*`): the clock, reset, and sample webhooks.
extension EnvironmentHost {
    static func addSandboxRoutes(
        to router: inout Router, _ lifecycle: Lifecycle, _ webhooks: WebhookLog, fixtures: RegionFixtures, clock: SandboxClock,
        afterClockMove: @escaping @Sendable () throws -> Void
    ) {
        @Sendable func state() -> Response {
            let now = lifecycle.now()
            return .json(SandboxClockState(now: Wire.time(now), nowUnix: Wire.unix(now), skewSeconds: clock.skew))
        }
        router.get("/_sandbox/clock") { _ in state() }
        router.post("/_sandbox/clock") { request in
            let body = try request.decode(Bodies.Clock.self)
            switch (body.advanceSeconds, body.set, body.realTime) {
            case (nil, nil, true?):
                clock.returnToRealTime()
            case (let seconds?, nil, nil):
                // Ten years is far beyond any rule here (certificates expire after three months).
                guard seconds.isFinite, (0...315_360_000).contains(seconds) else {
                    throw HTTPError.invalidRequest("advanceSeconds must be from 0 to 315360000.", field: "advanceSeconds")
                }
                clock.advance(by: seconds)
            case (nil, let text?, nil):
                guard let date = Wire.parse(text) else {
                    throw HTTPError.invalidRequest("set must be an ISO 8601 time such as 2026-12-01T10:00:00Z.", field: "set")
                }
                guard clock.set(to: date) else {
                    throw HTTPError.invalidRequest("The sandbox clock only moves forward.", field: "set")
                }
            default:
                throw HTTPError.invalidRequest("Give exactly one of advanceSeconds, set and realTime: true.", field: "advanceSeconds")
            }
            // Kept in the database: a restart goes on from here instead of going back to real time.
            try lifecycle.store.write { db in try db.host.saveClockOffset(clock.skew) }
            try afterClockMove()
            return state()
        }
        router.post("/_sandbox/reset") { _ in
            try lifecycle.reset(fixtures)
            return Response(status: 204)
        }
        router.post("/_sandbox/webhooks/trigger") { request in
            struct Body: Decodable { let event: String; let merchantId: String? }
            let body = try request.decode(Body.self)
            let types = Payments.sampleEvents
            guard types.contains(body.event) else {
                throw HTTPError.invalidRequest("event must be one of \(types.joined(separator: ", ")).", field: "event")
            }
            let merchant = try body.merchantId.map { try Validate.identifier($0, field: "merchantId") }
            return .json(["eventId": try webhooks.trigger(body.event, merchant: merchant)], status: 202)
        }
    }
}
