import HostRules
import HostStorage
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
            do throws(ClockMoveRefusal) {
                try clock.move(advanceSeconds: body.advanceSeconds, set: body.set, realTime: body.realTime)
            } catch {
                throw HTTPError.invalidRequest(error.message, field: error.field)
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
            let types = CardPayments.sampleEvents
            guard types.contains(body.event) else {
                throw HTTPError.invalidRequest("event must be one of \(types.joined(separator: ", ")).", field: "event")
            }
            let merchant = try body.merchantId.map { try Validate.identifier($0, field: "merchantId") }
            return .json(["eventId": try webhooks.trigger(body.event, merchant: merchant)], status: 202)
        }
    }
}
