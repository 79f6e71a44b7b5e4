import Foundation
import SandboxHTTP
import SandboxStore
import SandboxWire

/// Sandbox control of the wallet (`/_sandbox/*`): its clock, as a host's, and a reset.
extension WalletSimulator {
    static func addSandboxRoutes(to router: inout Router, book: OrderBook) {
        @Sendable func state() -> Response {
            .json(SandboxClockState(now: WireTime.string(milliseconds: book.now, precision: .seconds), skewSeconds: book.clock.skew))
        }
        router.get("/_sandbox/clock") { _ in state() }
        router.post("/_sandbox/clock") { request in
            struct Body: Decodable { let advanceSeconds: Double?; let set: String?; let realTime: Bool? }
            let body = try request.decode(Body.self)
            switch (body.advanceSeconds, body.set, body.realTime) {
            case (nil, nil, true?):
                book.clock.returnToRealTime()
            case (let seconds?, nil, nil):
                guard seconds.isFinite, (0...315_360_000).contains(seconds) else {
                    throw WalletError.invalid("advanceSeconds must be from 0 to 315360000.", field: "advanceSeconds")
                }
                book.clock.advance(by: seconds)
            case (nil, let text?, nil):
                guard let date = WireTime.date(from: text.uppercased()) else {
                    throw WalletError.invalid("set must be an ISO 8601 time such as 2026-12-01T10:00:00Z.", field: "set")
                }
                guard book.clock.set(to: date) else {
                    throw WalletError.invalid("The sandbox clock only moves forward.", field: "set")
                }
            default:
                throw WalletError.invalid("Give exactly one of advanceSeconds, set and realTime: true.", field: "advanceSeconds")
            }
            // Kept in the database: a restart goes on from here instead of going back to real time.
            try book.store.write { db in
                try db.run(
                    "INSERT INTO wallet_state (key, value) VALUES ('clock_offset', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    [.text(String(book.clock.skew))])
            }
            // What fell due is done before the answer: the caller sees it at once.
            try book.tick()
            return state()
        }
        router.post("/_sandbox/reset") { _ in
            try book.reset()
            return Response(status: 204)
        }
    }
}
